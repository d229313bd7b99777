import Foundation
import Testing
import BookTestSupport

/// An export is one process: for every printer, CMYK PDF/X included, the program starts no other
/// (no Ghostscript, no shell), traced by strace.
@Suite struct ExportProcessTests {
    @Test(arguments: ["ingramspark", "kdp"])
    func anExportStartsNoOtherProgram(_ profile: String) throws {
        let dir = try temporaryDirectory("export-processes-\(profile)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace")
        let pdf = dir.appendingPathComponent("book.pdf")
        // The storybook: pictures to convert, and colour emoji a printer without transparency
        // gets as patches.
        let book = Repository.samples.appendingPathComponent("storybook/book.json").path
        let r = try run("strace", ["-f", "-qq", "-e", "trace=execve,execveat,vfork,clone3", "-o", trace.path,
                                   try Repository.binary.path, "export", book, "-o", pdf.path, "--profile", profile, "--force"],
                        environment: ["XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
                                      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(r.status == 0, "\(r.stderr)")
        let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        let programs = calls.filter { $0.contains("execve(") }
        #expect(programs.count == 1, "programs started: \(programs)")
        #expect(programs.first?.contains(try Repository.binary.path) == true)
        #expect(FileManager.default.fileExists(atPath: pdf.path))
    }
}
