import Foundation
import CGraphics
import CShim
import BookBase
import BookLayout

extension PrintPDF {
    /// A small PDF of a few pages for a screen (a preview): the pictures decoded to `pictureDPI`
    /// and stored as JPEGs of that size rather than the book's full-size files, the text as the
    /// book's. Finished like any PDF without a print profile.
    public static func writeSmall(_ tree: PageTree, to url: URL, pictureDPI: Double = 150) throws {
        try AtomicOutput.write(to: url) { tmp in
            let stream = try PDFPageStream(into: tmp, for: url, document: PDFDocument(tree), opaque: false,
                                           text: .glyphRunsMadeHere, threads: 1, pictures: ScreenImageSources(dpi: pictureDPI))
            for page in tree.pages { try stream.draw(page) }
            let digest = try stream.close()
            var plan = finishingPlan(tree, pages: nil, profile: nil)
            plan.threads = 1
            plan.markedContents = stream.markedContents
            try PDFFinisher.finishInPlace(tmp, as: url, plan: plan, contentDigest: digest)
        }
    }
}

/// Pictures decoded to the size a screen shows them at, each carrying a JPEG of its pixels for
/// cairo to store in place of them (those with transparency, which JPEG cannot hold, go as pixels).
final class ScreenImageSources: ImageSources {
    private let raster: RasterImageSources
    var padsEdges: Bool { false }

    init(dpi: Double) { raster = RasterImageSources(dpi: dpi) }

    func surface(for box: ImageBox) throws -> ImageSurface {
        let decoded = try raster.surface(for: box)
        guard !box.asset.info.hasAlpha, cairo_image_surface_get_format(decoded.surface) == CAIRO_FORMAT_RGB24 else { return decoded }
        var known: UnsafePointer<UInt8>?
        var length: UInt = 0
        cairo_surface_get_mime_data(decoded.surface, "image/jpeg", &known, &length)
        if known == nil {
            let (bytes, count) = try JPEGEncoding.encode(decoded.surface, quality: 85)
            cairo_surface_set_mime_data(decoded.surface, "image/jpeg", bytes, UInt(count), free, bytes)
        }
        return decoded
    }
}
