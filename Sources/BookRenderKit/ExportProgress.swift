import Foundation

/// How far an export is, reported as it goes (`ExportOptions.progress`), for a progress line or
/// a wrapper's events. Reported from the threads doing the work, one report at a time.
public struct ExportProgress: Sendable, Equatable {
    public enum Stage: String, Sendable, Codable {
        /// The PDF's pages, drawn as layout makes them: the count is known only at the end.
        case pdf
        /// Page PNGs (spread previews not counted).
        case png
    }
    public var stage: Stage
    /// Pages of this stage finished so far.
    public var done: Int
    /// The stage's page count, when it is known.
    public var total: Int?

    public init(stage: Stage, done: Int, total: Int?) { self.stage = stage; self.done = done; self.total = total }
}
