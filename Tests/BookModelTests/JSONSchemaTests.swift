import Foundation
import Testing
@testable import BookModel
import BookTestSupport

/// schema/book.schema.json and the Swift model must accept and refuse the same files; this checks both
/// against every fixture and sample with Python's `jsonschema`, a validator independent of ours.
@Suite("JSON Schema agrees with the loader")
struct JSONSchemaTests {
    static let schema = Repository.root.appendingPathComponent("schema/book.schema.json")

    /// Books that must be valid: the fixtures, every sample, and what `BookExporter` writes for each app fixture.
    static func validBooks(exportingInto folder: URL) throws -> [URL] {
        var files = Fixtures.files(in: "books", named: { _ in true }).map { $0.appendingPathComponent("book.json") }
        let samples = Repository.root.appendingPathComponent("samples")
        let sampleFolders = (try? FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: nil)) ?? []
        files += sampleFolders.map { $0.appendingPathComponent("book.json") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        for app in Fixtures.files(in: "apps") {
            let exported = folder.appendingPathComponent("exported-" + app.lastPathComponent)
            try BookExporter.encode(try BookLoader.load(contentsOf: app).book).write(to: exported)
            files.append(exported)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Bad book.json fixtures that are well-formed JSON (a syntax error is no schema question).
    static var invalidBooks: [URL] {
        Fixtures.files(in: "bad").filter { !$0.lastPathComponent.hasPrefix("syntax-") }
    }

    @Test func validBooksPassAndBadOnesFailBothCheckers() throws {
        let temp = try temporaryDirectory("schema")
        defer { try? FileManager.default.removeItem(at: temp) }

        let valid = try Self.validBooks(exportingInto: temp)
        let invalid = Self.invalidBooks
        #expect(valid.count >= 5)
        #expect(invalid.count >= 7)

        for file in valid {
            #expect(throws: Never.self, "the loader refuses \(file.path)") { try BookLoader.load(contentsOf: file) }
        }
        for file in invalid {
            #expect(throws: BookError.self, "the loader accepts \(file.path)") { try BookLoader.load(contentsOf: file) }
        }

        let verdicts = try Self.runJSONSchema(valid: valid, invalid: invalid)
        for v in verdicts {
            #expect(v.matches, "jsonschema: \(v.file) should be \(v.expected ? "valid" : "invalid"): \(v.errors.joined(separator: "; "))")
        }
        // Not only both refuse a bad file: they point at the same places in it.
        for v in verdicts where !v.expected {
            guard let error = Fixtures.error("bad/" + URL(fileURLWithPath: v.file).lastPathComponent) else { continue }
            let ours = error.issues.compactMap(\.path)
            guard !ours.isEmpty else { continue }
            for path in ours {
                #expect(v.paths.contains { Self.samePlace(path, $0) }, "\(v.file): jsonschema finds nothing at \(path); it found \(v.paths)")
            }
            for path in v.paths {
                #expect(ours.contains { Self.samePlace(path, $0) }, "\(v.file): the loader finds nothing at \(path); it found \(ours)")
            }
        }
        #expect(verdicts.count == valid.count + invalid.count)
    }

    struct Verdict: Decodable {
        var file: String
        var expected: Bool
        var valid: Bool
        var errors: [String]
        /// JSONPath of each error, as the loader writes them.
        var paths: [String]
        var matches: Bool { expected == valid }
    }

    /// One checker names a missing field's path, the other the object lacking it: either may be inside the other.
    static func samePlace(_ a: String, _ b: String) -> Bool {
        func inside(_ x: String, _ y: String) -> Bool { x == y || x.hasPrefix(y + ".") || x.hasPrefix(y + "[") || y == "$" }
        return inside(a, b) || inside(b, a)
    }

    static let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("NO_JSONSCHEMA"); sys.exit(3)
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        out = []
        for arg in sys.argv[2:]:
            expected, path = arg[0] == "+", arg[1:]
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            found = list(validator.iter_errors(doc))
            errors = ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(root)", e.message) for e in found]
            paths = sorted({"$" + "".join("[%d]" % c if isinstance(c, int) else "." + c for c in e.absolute_path) for e in found})
            out.append({"file": path, "expected": expected, "valid": not errors, "errors": errors[:5], "paths": paths})
        print(json.dumps(out))
        """

    static func runJSONSchema(valid: [URL], invalid: [URL]) throws -> [Verdict] {
        // Debian's interpreter is the one scripts/install-deps.sh gives python3-jsonschema to; another
        // python3 earlier on PATH (pyenv, a venv) may lack the module.
        let debianPython = "/usr/bin/python3"
        let python = FileManager.default.isExecutableFile(atPath: debianPython) ? debianPython : "python3"
        let files: [String] = valid.map { "+" + $0.path } + invalid.map { "-" + $0.path }
        let result = try run(python, ["-c", script, schema.path] + files)
        if result.stdout.hasPrefix("NO_JSONSCHEMA") {
            Issue.record("Python's jsonschema module is missing: run scripts/install-deps.sh (it installs python3-jsonschema)")
            return []
        }
        guard result.status == 0 else {
            Issue.record("python3 failed (\(result.status)): \(result.stderr)")
            return []
        }
        return try JSONDecoder().decode([Verdict].self, from: result.stdoutData)
    }
}
