import Foundation

/// The book's long text, flowing over as many pages as it needs.
public struct TextPage: PagePayload {
    public static let type = PageType.text

    /// Paragraphs are split by blank lines.
    public var text: String?

    public init() {}

    public init(text: String?) { self.text = text }

    public var content: PageContent { .text(self) }

    public func problems() -> [PageProblem] {
        text.isBlank ? [PageProblem("text", "a text page needs non-empty \"text\"")] : []
    }
}
