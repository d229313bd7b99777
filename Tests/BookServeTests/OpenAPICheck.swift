import Foundation
import Testing
import BookTestSupport

/// Holds an answer of the service to the schema of schema/serve.openapi.yaml that documents it.
func expectMatchesOpenAPI(_ json: Data, _ schemaName: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let file = try temporaryDirectory("serve-openapi").appendingPathComponent("answer.json")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    try json.write(to: file)
    let script = """
        import json, sys
        try:
            import jsonschema, yaml
        except ImportError:
            print("MISSING"); sys.exit(3)
        doc = yaml.safe_load(open(sys.argv[1]))
        schema = {"$ref": "#/components/schemas/" + sys.argv[3], "components": doc["components"]}
        errors = ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(root)", e.message)
                  for e in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2])))]
        print("\\n".join(errors) if errors else "VALID")
        """
    let debianPython = "/usr/bin/python3"
    let python = FileManager.default.isExecutableFile(atPath: debianPython) ? debianPython : "python3"
    let spec = Repository.root.appendingPathComponent("schema/serve.openapi.yaml")
    let result = try run(python, ["-c", script, spec.path, file.path, schemaName])
    if result.stdout.hasPrefix("MISSING") {
        Issue.record("Python's jsonschema or yaml module is missing: run scripts/install-deps.sh", sourceLocation: sourceLocation)
        return
    }
    #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "VALID", "\(result.stdout)\(result.stderr)",
            sourceLocation: sourceLocation)
}
