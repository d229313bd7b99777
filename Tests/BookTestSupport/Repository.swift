import Foundation
import BookConfig

/// The checkout the tests run from, found from this file's path.
public enum Repository {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static var resources: ResourceLocator { ResourceLocator(root: root) }
    public static var samples: URL { root.appendingPathComponent("samples") }

    /// The built `bookrender` binary: beside the test bundle (`swift build` puts both in one folder).
    public static var binary: URL {
        get throws {
            var candidates: [URL] = []
            if let env = ProcessInfo.processInfo.environment["BOOKRENDER_BIN"] { candidates.append(URL(fileURLWithPath: env)) }
            candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("bookrender"))
            for b in Bundle.allBundles { candidates.append(b.bundleURL.deletingLastPathComponent().appendingPathComponent("bookrender")) }
            candidates.append(root.appendingPathComponent(".build/debug/bookrender"))
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw ToolError("bookrender binary not found (looked in \(candidates.map(\.path))); run `swift build` first or use scripts/test.sh")
            }
            return found
        }
    }
}

/// A fresh folder under the system temp dir, for one test.
public func temporaryDirectory(_ label: String = "test") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bookrender-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
