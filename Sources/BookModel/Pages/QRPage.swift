import Foundation

/// A QR code a phone's camera opens, with a caption and the address written out under it.
public struct QRPage: PagePayload {
    public static let type = PageType.qr

    /// What the code encodes: an absolute URL.
    public var url: String?
    public var caption: String?

    public init() {}

    public init(url: String?, caption: String? = nil) { self.url = url; self.caption = caption }

    public var content: PageContent { .qr(self) }

    public func problems() -> [PageProblem] {
        guard let url else { return [PageProblem("url", "a qr page needs a \"url\" to encode")] }
        guard BookValidator.isURL(url) else {
            return [PageProblem("url", "\"\(url)\" is not a URL; a QR page needs an absolute URL such as https://example.com/story")]
        }
        return []
    }
}
