import ArgumentParser
import Foundation
import BookRenderKit

/// A one-line progress display on a terminal's stderr: what is being made, how many of how many,
/// the rate, and about how long is left. Redrawn at most ten times a second, so a fast stage
/// costs nothing; on anything but a terminal it prints nothing.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var start: [String: Date] = [:]
    private var lastDrawn = Date.distantPast
    private var shown = false

    init(enabled: Bool = isatty(STDERR_FILENO) == 1) { self.enabled = enabled }

    /// `what`: the stage ("png pages"); `total` nil when the count is not yet known.
    func update(_ what: String, done: Int, total: Int?) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        let began = start[what] ?? now
        if start[what] == nil { start[what] = now }
        let finished = total.map { done >= $0 } ?? false
        guard finished || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        Console.write(Data(("\r\u{1B}[K" + Self.describe(what, done: done, total: total,
                                                            elapsed: now.timeIntervalSince(began))).utf8), to: STDERR_FILENO)
        shown = true
    }

    /// Removes the line, before the summary or a warning is printed.
    func clear() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if shown { Console.write(Data("\r\u{1B}[K".utf8), to: STDERR_FILENO) }
        shown = false
    }

    /// "png pages 120/359 · 24.1/s · about 10 s left".
    static func describe(_ what: String, done: Int, total: Int?, elapsed: Double) -> String {
        var line = "\(what) \(done)" + (total.map { "/\($0)" } ?? "")
        guard elapsed > 0.2, done > 0 else { return line }
        let rate = Double(done) / elapsed
        line += String(format: " · %.1f/s", rate)
        if let total, total > done { line += " · about \(duration(Double(total - done) / rate)) left" }
        return line
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s < 60 ? "\(s) s" : "\(s / 60) min \(s % 60) s"
    }
}

/// What a long command prints besides its results: `-q` keeps stderr to warnings and errors,
/// `-v` adds the time each stage took.
struct OutputLevel: ParsableArguments {
    @Flag(name: .shortAndLong, help: "No progress line and no summary; warnings and errors still print.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print the time each stage took.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("-q and -v ask for less and more at once; give one of them") }
    }
}

/// Illustrate's progress from its picture events: pictures finished (ready, failed, left as a
/// draft) of those the run has scheduled.
final class PictureProgress: @unchecked Sendable {
    private let line: ProgressLine
    private let lock = NSLock()
    private var states: [String: String] = [:]

    init(_ line: ProgressLine) { self.line = line }

    func note(_ event: IllustrationEvent) {
        guard event.event == .state, let key = event.key, let state = event.state else { return }
        let (done, total): (Int, Int) = lock.withLock {
            states[key] = state
            let finished: Set<String> = ["ready", "failed", "draft", "unreferenced"]
            return (states.values.filter(finished.contains).count, states.count)
        }
        line.update("pictures", done: done, total: total)
    }
}
