import Foundation

/// bench/illustrate-provider-server.py, the loopback stand-in for the image APIs that logs every
/// request: started with a control file and a log, and the port it printed once it listens.
public enum LoopbackProviderProcess {
    public static func start(_ process: Process, control: URL, log: URL, arguments: [String] = []) throws -> Int {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Repository.root.appendingPathComponent("bench/illustrate-provider-server.py").path,
                             "--control", control.path, "--log", log.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw ToolError("bench/illustrate-provider-server.py did not print its port: \(text)")
        }
        return port
    }
}
