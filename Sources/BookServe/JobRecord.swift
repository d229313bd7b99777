import Foundation

/// One submitted book and what became of it, as the job database keeps it.
public struct JobRecord: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable, CaseIterable {
        case queued, running, done, failed, cancelled
        public var isFinal: Bool { self == .done || self == .failed || self == .cancelled }
    }

    public struct Failure: Codable, Sendable, Equatable {
        /// A stable word apps can branch on: the export's error kind (invalidBook, generationFailed…),
        /// or crashed, timedOut, interrupted.
        public var code: String
        public var message: String
    }

    public var id: String
    public var client: String
    public var state: State
    public var options: ServeJobOptions
    /// The book file inside the job's folder that the export reads (book.json or an app's file).
    public var book: String
    public var created: Date
    public var started: Date?
    public var finished: Date?
    /// Times the job was started; more than one after a restart or a shutdown checkpoint.
    public var attempts: Int
    public var pages: Int?
    public var placeholders: Int?
    public var warnings: [String]?
    public var error: Failure?
    public var renderSeconds: Double?
}
