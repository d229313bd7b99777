import Foundation
import BookLayout

/// The package document (metadata, manifest, spine) and the navigation document of the e-book.
struct EPUBPackage {
    var tree: PageTree
    var book: EPUBBook
    var manifest: [ManifestItem]
    var spine: [(id: String, side: PageSide, overlay: String?)]
    var durations: [(id: String, seconds: Double)]
    var everyPictureDescribed: Bool
    var hasPictures: Bool

    var xml: String {
        var meta: [String] = [
            "<dc:identifier id=\"book-id\">\(XML.escape(book.identifier))</dc:identifier>",
            "<dc:title>\(XML.escape(tree.title))</dc:title>",
        ]
        if let author = tree.author, !author.isEmpty { meta.append("<dc:creator>\(XML.escape(author))</dc:creator>") }
        meta.append("<dc:language>\(XML.escape(tree.language))</dc:language>")
        if let date = book.date { meta.append("<dc:date>\(XML.escape(date))</dc:date>") }
        if let subtitle = tree.subtitle, !subtitle.isEmpty { meta.append("<dc:description>\(XML.escape(subtitle))</dc:description>") }
        meta += [
            "<meta property=\"dcterms:modified\">\(book.modified)</meta>",
            "<meta property=\"rendition:layout\">pre-paginated</meta>",
            "<meta property=\"rendition:orientation\">auto</meta>",
            // The reader decides, which every reader takes; some read no other value (Kobo's apps).
            "<meta property=\"rendition:spread\">auto</meta>",
        ]
        // What a reader needs to take the book in, and what helps (schema.org's vocabulary).
        meta.append("<meta property=\"schema:accessMode\">textual</meta>")
        if hasPictures || tree.pages.count > 0 { meta.append("<meta property=\"schema:accessMode\">visual</meta>") }
        meta.append("<meta property=\"schema:accessModeSufficient\">textual,visual</meta>")
        if everyPictureDescribed { meta.append("<meta property=\"schema:accessModeSufficient\">textual</meta>") }
        var features = ["readingOrder", "tableOfContents", "pageNavigation"]
        if hasPictures && everyPictureDescribed { features.append("alternativeText") }
        if !durations.isEmpty { features.append("synchronizedAudioText") }
        meta += features.map { "<meta property=\"schema:accessibilityFeature\">\($0)</meta>" }
        meta.append("<meta property=\"schema:accessibilityHazard\">none</meta>")
        meta.append("<meta property=\"schema:accessibilitySummary\">\(XML.escape(summary))</meta>")
        if !durations.isEmpty {
            let total = durations.map(\.seconds).reduce(0, +)
            meta.append("<meta property=\"media:active-class\">-epub-media-overlay-active</meta>")
            meta.append("<meta property=\"media:duration\">\(NarrationTiming.clock(total))</meta>")
            meta += durations.map { "<meta property=\"media:duration\" refines=\"#\($0.id)\">\(NarrationTiming.clock($0.seconds))</meta>" }
        }
        let items = manifest.map { item in
            var a = "<item id=\"\(item.id)\" href=\"\(item.href)\" media-type=\"\(item.mediaType)\""
            if let p = item.properties { a += " properties=\"\(p)\"" }
            if let o = item.overlay { a += " media-overlay=\"\(o)\"" }
            return a + "/>"
        }
        // The cover stands alone in every reader; a spread side given to it shifts every later
        // page to the wrong side in some (Kobo's iOS app).
        let refs = spine.enumerated().map { i, ref in
            i == 0 ? "<itemref idref=\"\(ref.id)\"/>" : "<itemref idref=\"\(ref.id)\" properties=\"page-spread-\(ref.side == .left ? "left" : "right")\"/>"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="\(XML.escape(tree.language))">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
        \(meta.joined(separator: "\n"))
        </metadata>
        <manifest>
        \(items.joined(separator: "\n"))
        </manifest>
        <spine page-progression-direction="ltr">
        \(refs.joined(separator: "\n"))
        </spine>
        </package>

        """
    }

    /// The accessibility summary: what the book is, and what a reader who cannot see it gets.
    private var summary: String {
        var s = "A fixed-layout book of \(tree.pages.count) pages, each a picture of the printed page with its text as real text over it, in reading order, so it can be searched and read aloud."
        if hasPictures {
            s += everyPictureDescribed ? " Every picture has a text description." : " Some pictures have no text description."
        }
        if !durations.isEmpty { s += " A recorded narration reads the text aloud, highlighted as it is read." }
        return s
    }

    /// Contents (the cover and each chapter, or the story's start) and the page list.
    static func navigation(_ tree: PageTree) -> String {
        var entries: [(String, Int)] = [("Cover", 1)]
        if tree.chapters.isEmpty {
            if tree.pages.count > 1 { entries.append((tree.title, 2)) }
        } else {
            entries += tree.chapters.map { ($0.title, $0.page) }
        }
        func href(_ page: Int) -> String { "page-\(String(format: "%03d", page)).xhtml" }
        let toc = entries.map { "<li><a href=\"\(href($0.1))\">\(XML.escape($0.0))</a></li>" }.joined(separator: "\n")
        let pages = tree.pages.map { "<li><a href=\"\(href($0.number))\">\($0.number)</a></li>" }.joined(separator: "\n")
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="\(XML.escape(tree.language))" xml:lang="\(XML.escape(tree.language))">
        <head>
        <meta charset="UTF-8"/>
        <title>\(XML.escape(tree.title))</title>
        </head>
        <body>
        <nav epub:type="toc" id="toc">
        <h1>Contents</h1>
        <ol>
        \(toc)
        </ol>
        </nav>
        <nav epub:type="page-list" id="page-list" hidden="hidden">
        <h1>Pages</h1>
        <ol>
        \(pages)
        </ol>
        </nav>
        </body>
        </html>

        """
    }
}
