import Foundation

/// The reader's own photo, whole, with a caption under it. Never generated.
public struct PhotoPage: PicturePage {
    public static let type = PageType.photo

    public var image: ImageRef?
    public var caption: String?
    /// What the photo shows, for the placeholder drawn while its file is missing.
    public var scene: String?
    /// Where the picture's subject is; estimated from its pixels when absent.
    public var focus: PictureFocus?
    /// How the picture fills its area; the page type's own way when absent.
    public var fit: PictureFit?

    public init() {}

    public init(image: ImageRef? = nil, caption: String? = nil, scene: String? = nil) {
        self.image = image; self.caption = caption; self.scene = scene
    }

    public var content: PageContent { .photo(self) }

    public func problems() -> [PageProblem] {
        image == nil ? [PageProblem("image", "a photo page needs an \"image\"")] : []
    }

    public var generation: PictureGeneration? { nil }

    /// How a photo fills its area when the book does not say: whole.
    public static let defaultFit = PictureFit.contain

    /// Shown whole, its caption beside it: only a photo cropped to fill its area has a choice.
    public var placementHasChoice: Bool { (fit ?? Self.defaultFit) != .contain }
}
