import Foundation

/// One picture across two facing pages, with each side's words on it.
public struct SpreadPage: PicturePage {
    public static let type = PageType.spread

    /// Absent means "not yet generated".
    public var image: ImageRef?
    public var scene: String?
    /// Where the picture's subject is; estimated from its pixels when absent.
    public var focus: PictureFocus?
    /// How the picture fills its area; the page type's own way when absent.
    public var fit: PictureFit?
    /// The left page's words when `leftText` is absent.
    public var text: String?
    public var leftText: String?
    public var rightText: String?

    public init() {}

    public init(image: ImageRef? = nil, scene: String? = nil, text: String? = nil, leftText: String? = nil, rightText: String? = nil) {
        self.image = image; self.scene = scene; self.text = text; self.leftText = leftText; self.rightText = rightText
    }

    public var content: PageContent { .spread(self) }

    public func problems() -> [PageProblem] {
        guard image == nil, scene.isBlank else { return [] }
        return [PageProblem(nil, "a spread needs an \"image\" or a \"scene\" to illustrate")]
    }

    public var generation: PictureGeneration? {
        PictureGeneration(describedBy: [scene, text, [leftText, rightText].compactMap { $0 }.joined(separator: " ")], pagesAcross: 2)
    }
}
