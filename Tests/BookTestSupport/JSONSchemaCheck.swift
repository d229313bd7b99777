import Foundation

/// Validates JSON against one of the published schemas with Python's `jsonschema` (Debian's
/// python3-jsonschema), a validator independent of ours.
public enum JSONSchemaCheck {
    /// The schema's violations, one line each, empty when `json` is valid; nil when the
    /// validator is not installed.
    public static func violations(of json: Data, against schema: URL) throws -> [String]? {
        let file = try temporaryDirectory("schema-check").appendingPathComponent("value.json")
        try json.write(to: file)
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("NO_JSONSCHEMA"); sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            errors = ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(root)", e.message)
                      for e in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2])))]
            print("\\n".join(errors) if errors else "VALID")
            """
        let debianPython = "/usr/bin/python3"
        let python = FileManager.default.isExecutableFile(atPath: debianPython) ? debianPython : "python3"
        let result = try run(python, ["-c", script, schema.path, file.path])
        if result.stdout.hasPrefix("NO_JSONSCHEMA") { return nil }
        let out = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0 else { return ["the validator failed: \(result.stdout)\(result.stderr)"] }
        return out == "VALID" ? [] : out.split(separator: "\n").map(String.init)
    }
}
