import Foundation
import BookRenderKit

/// The printed cover of an ordered job, rendered as every render of the service is: by a child
/// `bookrender cover` process, whose JSON report gives the sheet's size and the page count it was
/// measured for.
enum CoverChild {
    static func render(config: ServeConfiguration, job: JobRecord, folder: JobFolder, binding: String, paper: String) async throws(OrderError) -> CoverReport {
        var command = ["cover", job.book, "-o", folder.cover.path, "--profile", "lulu", "--binding", binding, "--paper", paper, "--json"]
            + config.limitArguments
        if let theme = job.options.theme { command += ["--theme", theme] }
        let arguments = command
        let report = folder.root.appendingPathComponent("cover-report.json")
        let executable = config.executable
        let timeout = config.jobTimeout ?? 600
        let outcome: (status: Int32, signalled: Bool)
        do {
            outcome = try await Background.run {
                let p = Process()
                // The child dies with the service (SIGKILL included), as the export children do.
                if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
                    p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                    p.arguments = ["--pdeathsig", "KILL", "--", executable.path] + arguments
                } else {
                    p.executableURL = executable
                    p.arguments = arguments
                }
                FileManager.default.createFile(atPath: report.path, contents: nil)
                let out = try FileHandle(forWritingTo: report)
                defer { try? out.close() }
                p.standardOutput = out
                p.standardError = FileHandle.nullDevice
                p.standardInput = FileHandle.nullDevice
                p.environment = ChildEnvironment.make(scratch: nil)
                try p.run()
                let pid = p.processIdentifier
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if p.isRunning { kill(pid, SIGKILL) } }
                p.waitUntilExit()
                return (p.terminationStatus, p.terminationReason == .uncaughtSignal)
            }
        } catch {
            throw OrderError(.failed, "could not run `bookrender cover`: \(error)")
        }
        let data = FileManager.default.contents(atPath: report.path) ?? Data()
        guard outcome.status == 0, !outcome.signalled, let cover = try? JSONDecoder().decode(CoverReport.self, from: data) else {
            let said = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]).flatMap { ($0["error"] as? [String: Any])?["message"] as? String }
            throw OrderError(.rejected, "the cover could not be rendered: " + (said ?? (outcome.signalled ? "the cover process was stopped" : "exit \(outcome.status)")))
        }
        return cover
    }
}
