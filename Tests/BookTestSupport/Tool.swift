import Foundation

public struct ToolError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

public struct ToolResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutData: Data
}

/// Runs a program (a PDF reader, ImageMagick, the built CLI) and collects its output.
/// Programs are looked up on PATH; a missing one is an error that says how to install it.
@discardableResult
public func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil,
                currentDirectory: URL? = nil, timeout: Double = 900) throws -> ToolResult {
    let executable: String
    if program.hasPrefix("/") {
        executable = program
    } else {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let dir = path.split(separator: ":").first(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }) else {
            throw ToolError("\(program) is not installed; run scripts/install-deps.sh")
        }
        executable = "\(dir)/\(program)"
    }
    // Output goes to files, not pipes, so a chatty program can never block on a full pipe.
    let dir = try temporaryDirectory("tool")
    defer { try? FileManager.default.removeItem(at: dir) }
    let outURL = dir.appendingPathComponent("out"), errURL = dir.appendingPathComponent("err")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    let status: Int32
    do {
        defer { try? out.close(); try? err.close() }
        let child = try CleanChild(executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                   currentDirectory: currentDirectory?.path, stdout: out.fileDescriptor, stderr: err.fileDescriptor)
        status = try child.wait(within: timeout, "\(program) \(arguments.joined(separator: " "))")
    }
    let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
    return ToolResult(status: status, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
}

extension Process {
    /// Waits for the process to end. One still running after `seconds` is killed and the wait
    /// throws, naming it: a program that hangs fails its own test instead of holding up the run.
    public func waitForExit(within seconds: Double = 600, _ what: @autoclosure () -> String = "") throws {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard isRunning else { return }
        kill(processIdentifier, SIGKILL)
        // Not waitUntilExit: a grandchild holding the descriptor Foundation watches would make
        // that wait endless (see CleanChild).
        let killed = Date().addingTimeInterval(10)
        while isRunning, Date() < killed { Thread.sleep(forTimeInterval: 0.02) }
        let name = what()
        throw ToolError("\(name.isEmpty ? executableURL?.lastPathComponent ?? "a process" : name) was still running after \(Int(seconds)) s and was killed")
    }
}
