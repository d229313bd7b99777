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
    let p = Process()
    if program.hasPrefix("/") {
        p.executableURL = URL(fileURLWithPath: program)
    } else {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let dir = path.split(separator: ":").first(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }) else {
            throw ToolError("\(program) is not installed; run scripts/install-deps.sh")
        }
        p.executableURL = URL(fileURLWithPath: "\(dir)/\(program)")
    }
    p.arguments = arguments
    if let environment { p.environment = environment }
    if let currentDirectory { p.currentDirectoryURL = currentDirectory }
    // Output goes to files, not pipes, so a chatty program can never block on a full pipe.
    let dir = try temporaryDirectory("tool")
    defer { try? FileManager.default.removeItem(at: dir) }
    let outURL = dir.appendingPathComponent("out"), errURL = dir.appendingPathComponent("err")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    try p.waitForExit(within: timeout, "\(program) \(arguments.joined(separator: " "))")
    try out.close(); try err.close()
    let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
    return ToolResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
}

extension Process {
    /// Waits for the process to end. One still running after `seconds` is killed and the wait
    /// throws, naming it: a program that hangs fails its own test instead of holding up the run.
    public func waitForExit(within seconds: Double = 600, _ what: @autoclosure () -> String = "") throws {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard isRunning else {
            waitUntilExit()
            return
        }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        let name = what()
        throw ToolError("\(name.isEmpty ? executableURL?.lastPathComponent ?? "a process" : name) was still running after \(Int(seconds)) s and was killed")
    }
}
