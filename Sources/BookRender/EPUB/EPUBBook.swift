import Foundation

/// What the e-book's package says besides its pages: who and what the book is, and its narration.
public struct EPUBBook: Sendable {
    /// A URN that stays the same for the same book (`urn:uuid:…`).
    public var identifier: String
    /// `dcterms:modified`, as CCYY-MM-DDThh:mm:ssZ.
    public var modified: String
    /// A date for `dc:date` (the book's `created`), when it has one.
    public var date: String?
    /// The narration's clips, each of one entry of the book's `pages`, in the book's order.
    public var narration: [NarrationClip]

    public init(identifier: String, modified: String, date: String? = nil, narration: [NarrationClip] = []) {
        self.identifier = identifier; self.modified = modified; self.date = date; self.narration = narration
    }
}

/// The stretch of a recording that reads one entry of the book's `pages`.
public struct NarrationClip: Sendable, Equatable {
    /// Index in the book's `pages` (from 0, as `PageNode.sourcePage`).
    public var sourcePage: Int
    /// The recording, and its media type (`audio/mpeg`, `audio/mp4`).
    public var file: URL
    public var mediaType: String
    /// Seconds into the recording.
    public var begin: Double
    public var end: Double

    public init(sourcePage: Int, file: URL, mediaType: String, begin: Double, end: Double) {
        self.sourcePage = sourcePage; self.file = file; self.mediaType = mediaType; self.begin = begin; self.end = end
    }
}

/// What writing the e-book did, for the export's report.
public struct EPUBOutcome: Sendable {
    /// Font files embedded whole, and those left to the reader's own fonts, with why.
    public var embeddedFonts: [String]
    public var fontsNotEmbedded: [(file: String, reason: String)]
    /// Pages that carry a media overlay.
    public var narratedPages: [Int]
}
