import Foundation
import BookBase
import BookResolve

/// Pictures by content address: provider, model, size, prompt and the hashes of the reference
/// images. Anything that changes the request changes the address, so a hit is always the picture
/// that request would have produced, and an unchanged book re-runs without a single call.
public struct IllustrationCache: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// `$XDG_CACHE_HOME/bookrender/illustrations`, else `~/.cache/bookrender/illustrations`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("bookrender/illustrations")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/bookrender/illustrations")
    }

    public static func address(provider: String, model: String, size: String, prompt: String, references: [String]) -> String {
        SHA256.hex(["bookrender-illustration-1", provider, model, size, references.joined(separator: ","), prompt].joined(separator: "\n"))
    }

    func url(for address: String) -> URL {
        directory.appendingPathComponent(String(address.prefix(2))).appendingPathComponent(address)
    }

    func get(_ address: String) -> Data? { try? Data(contentsOf: url(for: address)) }

    /// A picture that can no longer be decoded is dropped, so the next run makes it again.
    func remove(_ address: String) { try? FileManager.default.removeItem(at: url(for: address)) }

    func put(_ address: String, _ data: Data) {
        // A cache that cannot be written only costs a later call; it never fails the page.
        try? AtomicOutput.write(data, to: url(for: address))
    }
}
