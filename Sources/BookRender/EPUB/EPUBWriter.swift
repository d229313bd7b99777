import Foundation
import CGraphics
import BookBase
import BookConfig
import BookLayout

/// Writes the page tree as an EPUB 3 fixed-layout book: one XHTML document per page at the trim's
/// aspect, showing a picture of the page drawn without its text, and the text over it as live
/// words in the book's own fonts (see `EPUBPageText`); facing pages as synthetic spreads; the
/// contents and a page list; accessibility metadata; and, for a narrated book, media overlays that
/// read each page's lines in order.
public struct EPUBWriter {
    /// CSS pixels per point of the page: the viewport is the trim at 144 px per inch, so the page
    /// pictures are sharp on a tablet and the PNG pages at 144 dpi compare pixel for pixel.
    public static let pixelsPerPoint = 2.0
    public static var dpi: Double { 72 * pixelsPerPoint }

    public init() {}

    /// The viewport of every page, in CSS pixels.
    public static func viewport(_ trim: TrimSize) -> (width: Int, height: Int) {
        (Int((trim.width * pixelsPerPoint).rounded()), Int((trim.height * pixelsPerPoint).rounded()))
    }

    /// Writes `tree` (its glyph runs made, see `PageTree.prepareGlyphRuns`) to `url`, replacing it
    /// only once the whole book is written.
    public func write(_ tree: PageTree, book: EPUBBook, to url: URL) throws -> EPUBOutcome {
        let (width, height) = Self.viewport(tree.trim)
        var fonts = EPUBFonts()
        var files: [(name: String, data: Data)] = []
        var manifest: [ManifestItem] = []
        var spine: [(id: String, side: PageSide, overlay: String?)] = []
        var narrated: [Int] = []
        var durations: [(id: String, seconds: Double)] = []
        let timing = NarrationTiming(tree, clips: book.narration)
        var audioEntries: [URL: String] = [:]
        for clip in book.narration where audioEntries[clip.file] == nil {
            let ext = clip.file.pathExtension.lowercased()
            let name = "audio/narration-\(audioEntries.count + 1).\(ext)"
            audioEntries[clip.file] = name
            let data: Data
            do { data = try Data(contentsOf: clip.file) } catch {
                throw RenderError("cannot read the narration \(clip.file.path): \(AtomicOutput.reason(error))")
            }
            files.append((name, data))
            manifest.append(ManifestItem(id: "audio-\(audioEntries.count)", href: name, mediaType: clip.mediaType))
        }

        let drawer = PageDrawer(images: RasterImageSources(dpi: Self.dpi), text: .glyphRuns)
        let pixels = (width, height)
        var allAlt = true, anyPicture = false
        for page in tree.pages {
            let number = String(format: "%03d", page.number)
            // The page's picture: everything but its live text.
            var backdrop = page
            backdrop.items.removeAll { if case .text(let box) = $0 { EPUBPageText.isLive(box) } else { false } }
            let photographic = page.items.contains { if case .image = $0 { true } else if case .placeholderArt = $0 { true } else { false } }
            let image = try Self.encode(backdrop, drawer: drawer, size: pixels, jpeg: photographic)
            let imageName = "images/page-\(number).\(photographic ? "jpg" : "png")"
            files.append((imageName, image))
            manifest.append(ManifestItem(id: "img-\(number)", href: imageName, mediaType: photographic ? "image/jpeg" : "image/png"))

            let alts = page.images.compactMap { $0.altText?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            if !page.images.isEmpty { anyPicture = true; if alts.count < page.images.count { allAlt = false } }
            let text = EPUBPageText(page)
            let lineIDs = timing.lineIDs(page: page.number, text: text)
            let document = EPUBPageDocument(page: page, text: text, lineIDs: lineIDs, image: imageName, alt: alts.joined(separator: " "),
                                            viewport: (width, height), language: tree.language, title: tree.title)
            let xhtmlName = "page-\(number).xhtml"
            files.append((xhtmlName, Data(document.xhtml(fonts: &fonts).utf8)))
            var overlay: String?
            if let smil = timing.smil(page: page.number, text: text, document: xhtmlName, audio: audioEntries) {
                let smilName = "smil/page-\(number).smil"
                files.append((smilName, Data(smil.xml.utf8)))
                overlay = "mo-\(number)"
                manifest.append(ManifestItem(id: overlay!, href: smilName, mediaType: "application/smil+xml"))
                durations.append((overlay!, smil.duration))
                narrated.append(page.number)
            }
            manifest.append(ManifestItem(id: "page-\(number)", href: xhtmlName, mediaType: "application/xhtml+xml", overlay: overlay))
            spine.append(("page-\(number)", page.side, overlay))
        }

        if let cover = tree.pages.first {
            let image = try Self.encode(cover, drawer: drawer, size: pixels, jpeg: true)
            files.append(("images/cover.jpg", image))
            manifest.append(ManifestItem(id: "cover-image", href: "images/cover.jpg", mediaType: "image/jpeg", properties: "cover-image"))
        }
        for face in fonts.embedded {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: face.file)) } catch {
                throw RenderError("cannot read the font \(face.file): \(AtomicOutput.reason(error))")
            }
            files.append(("fonts/\(face.entry!)", data))
            manifest.append(ManifestItem(id: face.family, href: "fonts/\(face.entry!)", mediaType: face.mediaType!))
        }
        files.append(("css/book.css", Data(EPUBPageDocument.styleSheet(fonts: fonts, viewport: (width, height)).utf8)))
        manifest.append(ManifestItem(id: "css", href: "css/book.css", mediaType: "text/css"))
        files.append(("nav.xhtml", Data(EPUBPackage.navigation(tree).utf8)))
        manifest.append(ManifestItem(id: "nav", href: "nav.xhtml", mediaType: "application/xhtml+xml", properties: "nav"))

        let package = EPUBPackage(tree: tree, book: book, manifest: manifest, spine: spine, durations: durations,
                                  everyPictureDescribed: !anyPicture || allAlt, hasPictures: anyPicture)
        files.append(("package.opf", Data(package.xml.utf8)))
        try AtomicOutput.makeFolder(url.deletingLastPathComponent())
        try AtomicOutput.write(to: url) { tmp in try EPUBArchive.write(files, to: tmp) }
        return EPUBOutcome(embeddedFonts: fonts.embedded.map(\.file), fontsNotEmbedded: fonts.notEmbedded, narratedPages: narrated)
    }

    /// The page drawn at the viewport's size, as a JPEG (pictures) or a PNG (flat colour, rules, a
    /// QR code, which JPEG would blur).
    static func encode(_ page: PageNode, drawer: PageDrawer, size: (Int, Int), jpeg: Bool) throws -> Data {
        let surface = try PNGPageWriter.drawn(page, drawer: drawer, size: (size.0, size.1), dpi: dpi)
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        if !jpeg {
            return try TemporaryFiles.withScratchFile("page.png") { tmp in
                try PNGWriter.write(surface: surface, to: tmp.path, dpi: dpi)
                return try Data(contentsOf: tmp)
            }
        }
        return try JPEGEncoding.data(surface, quality: 88)
    }
}

struct ManifestItem {
    var id: String
    var href: String
    var mediaType: String
    var properties: String?
    var overlay: String?

    init(id: String, href: String, mediaType: String, properties: String? = nil, overlay: String? = nil) {
        self.id = id; self.href = href; self.mediaType = mediaType; self.properties = properties; self.overlay = overlay
    }
}
