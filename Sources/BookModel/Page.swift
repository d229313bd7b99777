import Foundation

/// One entry of `pages`. Its `type` picks the template; a text page may become many physical pages
/// and a spread always becomes two facing ones.
public struct Page: Codable, Sendable, Equatable {
    public var type: PageType
    /// Stable id (kept from the source app when it has one), used in reports and by the generation step.
    public var id: String?
    /// illustration, photo, spread: the picture. Absent on an illustration page means "not yet generated".
    public var image: ImageRef?
    public var caption: String?
    /// Body text: the text under an illustration, a text page's flowing text (paragraphs split by blank lines).
    public var text: String?
    /// What the illustration shows; the placeholder and the generation prompt use it.
    public var scene: String?
    /// chapter: the chapter title (and `subtitle` under it).
    public var title: String?
    public var subtitle: String?
    /// spread: the text on the left and right page.
    public var leftText: String?
    public var rightText: String?
    /// qr: what the code encodes.
    public var url: String?

    public init(type: PageType, id: String? = nil, image: ImageRef? = nil, caption: String? = nil,
                text: String? = nil, scene: String? = nil, title: String? = nil, subtitle: String? = nil,
                leftText: String? = nil, rightText: String? = nil, url: String? = nil) {
        self.type = type; self.id = id; self.image = image; self.caption = caption; self.text = text
        self.scene = scene; self.title = title; self.subtitle = subtitle; self.leftText = leftText
        self.rightText = rightText; self.url = url
    }
}

public enum PageType: String, Codable, Sendable, CaseIterable {
    case illustration
    case text
    case photo
    case chapter
    case spread
    case qr
}
