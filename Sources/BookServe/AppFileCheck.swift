import Foundation

/// An app's own file is read whole by its importer, pictures and all, so it is checked in a
/// process of its own (`bookrender validate`, with the service's limits): however large the file,
/// the service's memory is not what pays for it.
enum AppFileCheck {
    /// Longer than any book takes to open; a file that takes more is refused, not waited for.
    static let timeout: Double = 300

    static func check(_ file: URL, job: JobFolder, config: ServeConfiguration) throws(APIError) {
        let output = job.root.appendingPathComponent("check.json")
        defer { unlink(output.path) }
        let p = Process()
        let arguments = ["validate", file.path, "--json"] + config.limitArguments
        // The check dies with the service's thread that waits for it, as an export does.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--pdeathsig", "KILL", "--", config.executable.path] + arguments
        } else {
            p.executableURL = config.executable
            p.arguments = arguments
        }
        try? FileManager.default.createDirectory(at: job.scratch, withIntermediateDirectories: true)
        p.environment = ChildEnvironment.make(scratch: job.scratch)
        p.standardInput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard FileManager.default.createFile(atPath: output.path, contents: nil), let handle = try? FileHandle(forWritingTo: output) else {
            throw APIError(500, "storage", "cannot check the book in the job's folder")
        }
        p.standardOutput = handle
        do { try p.run() } catch {
            try? handle.close()
            throw APIError(500, "internal", "the service could not start the check of the book; try again")
        }
        try? handle.close()
        let deadline = DispatchTime.now() + timeout
        let pid = p.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: deadline) { if p.isRunning { kill(pid, SIGKILL) } }
        p.waitUntilExit()
        guard p.terminationReason == .exit, let data = try? Data(contentsOf: output),
              let outcome = try? JSONDecoder().decode(Outcome.self, from: data) else {
            throw APIError(400, "invalidBook", "the book could not be opened in the time and memory a book takes; send the file as the app saved it")
        }
        if let error = outcome.error {
            let lines = [error.message] + (error.diagnostics ?? []).prefix(20).compactMap { d in d.jsonPath.map { "\($0): \(d.message)" } }
            let message = ClientText.forClient(lines.joined(separator: "\n"), job: job)
            if error.message.contains("--max-image-pixels") { throw APIError(413, "imageTooLarge", message) }
            if ["--max-text-length", "--max-book-text-length", "--max-word-length"].contains(where: error.message.contains) {
                throw APIError(413, "textTooLong", message)
            }
            throw APIError(400, error.kind == "invalidOptions" ? "invalidOption" : error.kind, message)
        }
        let pages = outcome.entries ?? 0
        guard pages <= config.maxPages else {
            throw APIError(413, "tooManyPages", "the book has \(pages) pages; the service takes at most \(config.maxPages) (its --max-pages)")
        }
    }

    /// What `bookrender validate --json` writes.
    private struct Outcome: Decodable {
        struct Failure: Decodable {
            var kind: String
            var message: String
            var diagnostics: [Finding]?
        }
        struct Finding: Decodable {
            var jsonPath: String?
            var message: String
        }
        var entries: Int?
        var error: Failure?
    }
}
