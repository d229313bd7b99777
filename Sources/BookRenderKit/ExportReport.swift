import Foundation
import BookLayout

/// The account of an export: what each physical page is, every finding, the fonts and pictures
/// used, what was written and how long each stage took.
public struct ExportReport: Codable {
    public struct PageEntry: Sendable, Codable, Equatable {
        public var number: Int
        public var side: String
        /// cover, illustration, text, photo, chapter, spreadLeft, spreadRight, qr, blank
        public var role: String
        /// Index of the entry of the book's `pages` the page was laid out from.
        public var sourcePage: Int?
        /// The pictures on the page, as the book names them.
        public var images: [String]
        public var placeholder: Bool
        /// For a blank page, why it was put in.
        public var blankReason: String? = nil
        /// How the page's picture is cropped and its text placed.
        public var art: [ArtEntry]
    }

    public struct ImageEntry: Sendable, Codable, Equatable {
        /// As the book names it: a path relative to its folder, or the inline image's place.
        public var origin: String
        public var format: String
        public var pixels: String
        public var colorModel: String
        public var bytes: Int
        public var pages: [Int]
        /// Pixels per inch where the picture is drawn largest.
        public var lowestEffectiveDPI: Int
    }

    public struct StageTime: Sendable, Codable, Equatable {
        /// load, resolve, layout, pdf (drawing and finishing; "layout+pdf" when pages are drawn as
        /// they are laid out), png
        public var stage: String
        public var seconds: Double
    }

    /// A print interior whose page colour is left to the paper: that colour and the paper to order.
    public struct PaperEntry: Sendable, Codable, Equatable {
        /// The theme's page colour, `#RRGGBB`, which is not printed.
        public var pageColour: String
        /// "white" or "cream": what `cover --paper` and the printer's order form should say.
        public var suggested: String
    }

    public var bookrender: String = BookRenderKit.version
    /// The format the book was read from.
    public var source: String
    public var title: String
    public var theme: String
    public var profile: String?
    /// Pages in the laid-out book.
    public var pageCount: Int
    public var pages: [PageEntry]
    public var pdf: String?
    /// Physical pages the PDF holds (all unless a range was asked for).
    public var writtenPages: [Int]
    public var pngFiles: [String]
    /// The EPUB written, and its pages that carry the narration.
    public var epub: String?
    public var narratedPages: [Int]?
    /// Pages where a picture is missing or not yet generated.
    public var placeholders: [Diagnostic]
    /// Every finding: load warnings, resolve and layout findings, preflight's.
    public var findings: [Diagnostic]
    /// The font files the text is set in.
    public var fonts: [String]
    public var images: [ImageEntry]
    public var timings: [StageTime]
    /// Set when the page colour is the paper's (a printer's profile, without `format.printBackground`).
    public var paper: PaperEntry?
    /// The laid-out book, when `ExportOptions.keepPageTree` asked for it (not part of the JSON).
    public var pageTree: PageTree?

    private enum CodingKeys: String, CodingKey {
        case bookrender, source, title, theme, profile, pageCount, pages, pdf, writtenPages, pngFiles, epub, narratedPages, placeholders,
             findings, fonts, images, timings, paper
    }

    /// The report as the JSON file `ExportOptions.report` names.
    public func jsonData() throws -> Data { try JSONOutput.encode(self) }
}
