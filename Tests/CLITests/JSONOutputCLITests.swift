import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// Every command's `--json` (and `--report -`) output is one object of schema/report.schema.json,
/// checked with a real JSON Schema validator.
@Suite struct JSONOutputCLITests {
    static let schema = Repository.root.appendingPathComponent("schema/report.schema.json")

    func bookrender(_ args: [String], in dir: URL? = nil) throws -> ToolResult {
        try run(try Repository.binary.path, args, currentDirectory: dir)
    }

    /// Parses stdout as one JSON object, validates it and returns it.
    @discardableResult
    func expectReport(_ r: ToolResult, command: String, _ context: String) throws -> [String: Any] {
        let object = try #require(try? JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any],
                                  "\(context): stdout is not one JSON object: \(r.stdout.prefix(300)) \(r.stderr.prefix(300))")
        #expect(object["command"] as? String == command, "\(context)")
        let producer = try #require(object["producer"] as? [String: Any], "\(context)")
        #expect(producer["bookrender"] as? String == BookRenderKit.version, "\(context)")
        guard let violations = try JSONSchemaCheck.violations(of: r.stdoutData, against: Self.schema) else {
            Issue.record("Python's jsonschema module is missing: run scripts/install-deps.sh (it installs python3-jsonschema)")
            return object
        }
        #expect(violations.isEmpty, "\(context): \(violations.joined(separator: "\n"))")
        return object
    }

    /// A small book with one picture, one placeholder and one unknown field.
    func book() throws -> URL {
        let dir = try temporaryDirectory("json-output")
        try run("convert", ["-size", "300x400", "gradient:#88CCEE-#FFEEAA", dir.appendingPathComponent("ok.jpg").path])
        let json = #"""
        {"schema": 1, "kind": "storybook", "title": "JSON", "captoin": "typo",
         "pages": [{"type": "illustration", "image": "ok.jpg", "text": "Hello."},
                   {"type": "illustration", "text": "Later.", "scene": "a hill"}]}
        """#
        try Data(json.utf8).write(to: dir.appendingPathComponent("book.json"))
        return dir
    }

    @Test func everyCommandPrintsOneReportOfThePublishedSchema() throws {
        let dir = try book()
        let book = dir.appendingPathComponent("book.json").path
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

        try expectReport(try bookrender(["--version", "--json"]), command: "version", "--version")
        let export = try expectReport(try bookrender(["export", book, "-o", path("o.pdf"), "--png", path("png"), "--json"]),
                                      command: "export", "export --json")
        // Every warning printed on stderr is in the report, the unknown field among them.
        let findings = try #require(export["findings"] as? [[String: Any]])
        #expect(findings.contains { ($0["message"] as? String)?.contains("$.captoin: unknown field") == true }, "\(findings)")
        #expect(findings.contains { $0["code"] as? String == "placeholder" && $0["page"] as? Int == 3 && $0["jsonPath"] as? String == "$.pages[1]" },
                "\(findings)")
        try expectReport(try bookrender(["export", book, "-o", path("o.pdf"), "--report", "-"]), command: "export", "export --report -")
        #expect(!FileManager.default.fileExists(atPath: "-") && !FileManager.default.fileExists(atPath: path("-")))
        try expectReport(try bookrender(["validate", book, "--json"]), command: "validate", "validate")
        try expectReport(try bookrender(["info", book, "--json"]), command: "info", "info")
        try expectReport(try bookrender(["preflight", book, "--profile", "screen", "--json"]), command: "preflight", "preflight book")
        try expectReport(try bookrender(["preflight", path("o.pdf"), "--profile", "screen", "--json"]), command: "preflight", "preflight PDF")
        try expectReport(try bookrender(["cover", book, "-o", path("cover.pdf"), "--profile", "kdp", "--force", "--report", "-"]),
                         command: "cover", "cover")
        let compare = try bookrender(["compare", path("png"), path("png"), "--out", path("cmp"), "--json"])
        #expect(compare.status == 0)
        try expectReport(compare, command: "compare", "compare")
        try expectReport(try bookrender(["import", Repository.samples.appendingPathComponent("apps/roger/story.json").path,
                                         "-o", path("imported/book.json"), "--report", "-"]), command: "import", "import")
        try expectReport(try bookrender(["illustrate", book, "--provider", "local", "--cache", path("cache"), "--json"]),
                         command: "illustrate", "illustrate")
        try expectReport(try bookrender(["init", path("new"), "--json"]), command: "init", "init")
        try expectReport(try bookrender(["fonts", "--json"]), command: "fonts", "fonts")
        try expectReport(try bookrender(["themes", "--json"]), command: "themes", "themes")
        let manifest = dir.appendingPathComponent("jobs.jsonl")
        try Data(#"{"input": "\#(path("new/book.json"))", "output": "\#(path("batch/new.pdf"))"}"#.utf8).write(to: manifest)
        try expectReport(try bookrender(["batch", manifest.path, "--json"]), command: "batch", "batch")
    }

    @Test func aFailureIsOneReportWithItsErrorAndFindings() throws {
        let dir = try temporaryDirectory("json-failure")
        try Data(#"{"schema": 1, "kind": "storybook", "title": "Bad", "pages": [{"type": "photo"}]}"#.utf8)
            .write(to: dir.appendingPathComponent("book.json"))
        let book = dir.appendingPathComponent("book.json").path
        for args in [["validate", book, "--json"], ["export", book, "-o", dir.appendingPathComponent("o.pdf").path, "--report", "-"]] {
            let r = try bookrender(args)
            #expect(r.status == 65, "\(args)")
            let object = try expectReport(r, command: args[0], args.joined(separator: " "))
            let findings = try #require(object["findings"] as? [[String: Any]])
            #expect(findings.contains { $0["jsonPath"] as? String == "$.pages[0].image" && $0["severity"] as? String == "error" }, "\(findings)")
        }
    }

    @Test func theVersionNamesTheFontSetAndTheDrawingLibraries() throws {
        let r = try bookrender(["--version"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "bookrender \(BookRenderKit.version)")
        // sha256sum, not our own hashing, says what the manifest's hash is.
        let sum = try run("sha256sum", [Repository.resources.fontManifest.path]).stdout.prefix(64)
        #expect(lines.contains("font set sha256:\(sum)"), "\(lines)")
        for library in ["cairo 1.", "Pango 1.", "HarfBuzz "] {
            #expect(lines.contains { $0.hasPrefix(library) && $0.count > library.count }, "\(library) in \(lines)")
        }
    }
}
