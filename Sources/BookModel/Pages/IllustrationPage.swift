import Foundation

/// A picture with its words under it. Without `image` it is generated from what the page says, and
/// shown as a placeholder until then.
public struct IllustrationPage: PicturePage {
    public static let type = PageType.illustration

    /// Absent means "not yet generated".
    public var image: ImageRef?
    public var caption: String?
    /// The words under the picture.
    public var text: String?
    /// What the picture shows; the placeholder and the generation prompt use it.
    public var scene: String?
    /// Where the picture's subject is; estimated from its pixels when absent.
    public var focus: PictureFocus?
    /// How the picture fills its area; the page type's own way when absent.
    public var fit: PictureFit?

    public init() {}

    public init(image: ImageRef? = nil, caption: String? = nil, text: String? = nil, scene: String? = nil) {
        self.image = image; self.caption = caption; self.text = text; self.scene = scene
    }

    public var content: PageContent { .illustration(self) }

    public func problems() -> [PageProblem] {
        guard image == nil, scene.isBlank, text.isBlank else { return [] }
        return [PageProblem(nil, "an illustration page needs an \"image\", a \"scene\" to illustrate, or \"text\"")]
    }

    public var generation: PictureGeneration? {
        PictureGeneration(describedBy: [scene, text, caption], pagesAcross: 1)
    }
}
