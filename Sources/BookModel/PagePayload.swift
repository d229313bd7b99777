import Foundation

/// What a page of one type holds, and the rules that differ by type. Its stored properties are its
/// fields in book.json under the same names, all optional: a missing one is a validation error
/// (`problems`), not a decoding one, so every problem of a book is reported at once.
public protocol PagePayload: Codable, Sendable, Equatable {
    /// The `type` book.json writes for it.
    static var type: PageType { get }
    /// No field set; its field names are read off it.
    init()
    /// This payload as a page's content.
    var content: PageContent { get }
    /// What keeps the page from rendering; empty when nothing does.
    func problems() -> [PageProblem]
}

/// A page type that shows a picture: `image` in book.json, or while it has none a placeholder
/// drawn from `scene`.
public protocol PicturePage: PagePayload {
    var image: ImageRef? { get set }
    /// What the picture shows, in words: written on its placeholder.
    var scene: String? { get }
    /// Where the picture's subject is, when the book says.
    var focus: PictureFocus? { get }
    /// How the picture fills its area, when the book says.
    var fit: PictureFit? { get }
    /// What `bookrender illustrate` asks a provider for while `image` is absent; nil for a picture
    /// that is never generated (a photo is the reader's own).
    var generation: PictureGeneration? { get }
    /// false when the page shows its picture in one way only, whatever the picture holds (whole,
    /// with no text over it): where its subject is cannot matter, so nobody works it out.
    var placementHasChoice: Bool { get }
}

extension PicturePage {
    public var placementHasChoice: Bool { true }
}

/// Why a page cannot be rendered.
public struct PageProblem: Sendable, Equatable {
    /// The field in book.json it is about; nil for the page as a whole (when any of several fields would do).
    public var field: String?
    public var message: String

    public init(_ field: String?, _ message: String) { self.field = field; self.message = message }
}

/// A picture to be generated.
public struct PictureGeneration: Sendable, Equatable {
    /// What to draw: the first of the page's texts that says something; empty when none does.
    public var scene: String
    /// Facing pages the picture spans: 1, or 2 for a spread.
    public var pagesAcross: Int

    public init(describedBy texts: [String?], pagesAcross: Int) {
        scene = texts.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty } ?? ""
        self.pagesAcross = pagesAcross
    }
}

extension PagePayload {
    /// Its fields in book.json.
    static var fieldNames: [String] { Mirror(reflecting: Self()).children.compactMap(\.label) }
}

extension Optional where Wrapped == String {
    /// Absent, or only whitespace as trimming `.whitespacesAndNewlines` would leave empty; stops at
    /// the first other character (trimming would copy a chapter's whole text).
    var isBlank: Bool {
        guard let s = self else { return true }
        return s.unicodeScalars.allSatisfy { CharacterSet.whitespacesAndNewlines.contains($0) }
    }
}
