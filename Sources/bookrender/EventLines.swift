import Foundation

/// `--events`: one JSON object a line on stdout, each with an `event` name, for wrappers that
/// show their own progress. Written whole, one at a time, from whichever thread reports.
final class EventLines: @unchecked Sendable {
    private let lock = NSLock()

    func emit(_ event: String, _ fields: [String: Any?]) {
        var object: [String: Any] = ["event": event]
        for (key, value) in fields { if let value { object[key] = value } }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        lock.lock(); defer { lock.unlock() }
        Console.write(data + Data("\n".utf8), to: STDOUT_FILENO)
    }
}
