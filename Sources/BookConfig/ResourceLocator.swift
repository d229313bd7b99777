import Foundation

/// Where bookrender's own data lives: `templates/` (themes) and `fonts/` (the private font set).
/// `BOOKRENDER_HOME` wins; otherwise the folder above the executable (or the working directory)
/// that holds both, so a build in `.build/debug` and an installed copy both find them.
public struct ResourceLocator: Sendable {
    public var root: URL
    public var templates: URL { root.appendingPathComponent("templates") }
    public var fontManifest: URL { root.appendingPathComponent("fonts/fonts.json") }
    public var profiles: URL { templates.appendingPathComponent("profiles") }
    /// Hyphenation exceptions, one file per language (`en.txt`).
    public var hyphenation: URL { templates.appendingPathComponent("hyphenation") }

    public init(root: URL) { self.root = root }

    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ResourceLocator {
        if let home = environment["BOOKRENDER_HOME"], !home.isEmpty {
            let r = ResourceLocator(root: URL(fileURLWithPath: home))
            guard r.isComplete else {
                throw ConfigError("BOOKRENDER_HOME=\(home) has no templates/ and fonts/fonts.json")
            }
            return r
        }
        var starts: [URL] = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        starts.insert(exe.deletingLastPathComponent(), at: 0)
        if let path = executablePath {
            starts.insert(URL(fileURLWithPath: path).deletingLastPathComponent(), at: 0)
        }
        for start in starts {
            var dir = start.standardizedFileURL
            while true {
                let r = ResourceLocator(root: dir)
                if r.isComplete { return r }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        throw ConfigError("cannot find bookrender's templates/ and fonts/ folders; set BOOKRENDER_HOME to the folder holding them")
    }

    /// The running program's file, symlinks resolved (Linux's `/proc/self/exe`). Not
    /// `Bundle.main.executablePath`: Foundation sets up its whole bundle on first use, about a
    /// millisecond of every run.
    static var executablePath: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    var isComplete: Bool {
        FileManager.default.fileExists(atPath: templates.path) && FileManager.default.fileExists(atPath: fontManifest.path)
    }
}

/// An ASCII letter, digit, '_' or '-': what theme and profile names are made of, so a name is
/// always one file in its folder.
func isNameByte(_ b: UInt8) -> Bool {
    (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2D
}
