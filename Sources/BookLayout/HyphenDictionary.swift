import Foundation
import CGraphics

/// A pattern file, loaded once per process and shared by every Hyphenator that uses it, whatever
/// its thread: libhyphen only reads a dictionary while hyphenating (`hnj_hyphen_hyphenate2` works
/// in buffers of its own), and loading one takes several milliseconds (hyph_en_US.dic: about 7).
final class HyphenDictionary: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<HyphenDict>

    private init(_ pointer: UnsafeMutablePointer<HyphenDict>) { self.pointer = pointer }

    private static let condition = NSCondition()
    /// By path; nil for a file libhyphen could not load. Kept for the life of the process.
    nonisolated(unsafe) private static var loaded: [String: HyphenDictionary?] = [:]
    nonisolated(unsafe) private static var loading: Set<String> = []

    /// The dictionary at `url`, loaded by the first caller; a caller that comes while another
    /// thread loads it waits for that load.
    static func load(_ url: URL) -> HyphenDictionary? {
        let path = url.path
        condition.lock()
        while loading.contains(path) { condition.wait() }
        if let known = loaded[path] {
            condition.unlock()
            return known
        }
        loading.insert(path)
        condition.unlock()
        let dictionary = hnj_hyphen_load(path).map(HyphenDictionary.init)
        condition.withLock {
            loading.remove(path)
            loaded[path] = dictionary
            condition.broadcast()
        }
        return dictionary
    }
}
