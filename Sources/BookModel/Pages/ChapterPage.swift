import Foundation

/// A chapter opener; its title is also the chapter's entry in the PDF outline. Any `text` is the
/// chapter's first words, flowing on after the opener.
public struct ChapterPage: PagePayload {
    public static let type = PageType.chapter

    public var title: String?
    public var subtitle: String?
    public var text: String?

    public init() {}

    public init(title: String? = nil, subtitle: String? = nil, text: String? = nil) {
        self.title = title; self.subtitle = subtitle; self.text = text
    }

    public var content: PageContent { .chapter(self) }

    public func problems() -> [PageProblem] {
        title.isBlank ? [PageProblem("title", "a chapter page needs a non-empty \"title\"")] : []
    }
}
