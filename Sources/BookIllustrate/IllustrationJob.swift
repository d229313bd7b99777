import Foundation
import BookBase
import BookResolve

/// One picture the step must produce: the main character's reference, the cover, or a page.
public struct IllustrationJob: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case character, cover, page }

    public var kind: Kind
    /// Stable across runs: "character", "cover", or the page's id (else "page-N").
    public var key: String
    /// Index into `book.pages` for a page job.
    public var pageIndex: Int?
    /// What the picture shows (the page's scene, else its text).
    public var scene: String
    public var aspect: AspectRatio
    /// "page 5 of 11", "cover", "main character": how progress and errors name it.
    public var label: String
    /// Where it prints, which sets the fewest pixels it may have; nil: any size.
    public var place: PicturePlace?

    public init(kind: Kind, key: String, pageIndex: Int? = nil, scene: String, aspect: AspectRatio, label: String, place: PicturePlace? = nil) {
        self.kind = kind; self.key = key; self.pageIndex = pageIndex; self.scene = scene
        self.aspect = aspect; self.label = label; self.place = place
    }
}

/// A picture sent along with the prompt.
public struct ReferenceImage: Sendable, Equatable {
    public enum Role: String, Sendable { case mainCharacter = "main character", style = "style (first page)", photo = "photo of the child" }
    public var role: Role
    public var data: Data
    /// Where it came from ("images/pip.png", "inline image"), for --dry-run.
    public var origin: String
    public var hash: String

    public init(role: Role, data: Data, origin: String) {
        self.role = role; self.data = data; self.origin = origin; self.hash = SHA256.hex(data)
    }

    /// OpenAI rejects application/octet-stream parts, so the type comes from the bytes.
    public var mimeType: String {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if data.count >= 12, data.prefix(4) == Data("RIFF".utf8), data.dropFirst(8).prefix(4) == Data("WEBP".utf8) { return "image/webp" }
        return "image/png"
    }

    public var fileExtension: String {
        switch mimeType { case "image/jpeg": return "jpg"; case "image/webp": return "webp"; default: return "png" }
    }
}

/// `preview` is cheaper and faster; `print` asks for the provider's best.
public enum Resolution: String, Sendable, CaseIterable { case preview, print }

/// Everything a provider needs for one call.
public struct GenerationRequest: Sendable {
    public var job: IllustrationJob
    public var prompt: String
    public var references: [ReferenceImage]
    public var resolution: Resolution

    public init(job: IllustrationJob, prompt: String, references: [ReferenceImage], resolution: Resolution) {
        self.job = job; self.prompt = prompt; self.references = references; self.resolution = resolution
    }
}
