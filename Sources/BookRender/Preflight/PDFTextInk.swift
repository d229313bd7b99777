import Foundation
import Synchronization
import BookConfig
import BookLayout

/// Where a PDF's text leaves ink, page by page, as Ghostscript draws it: only the text
/// (`-dFILTERIMAGE -dFILTERVECTOR`), clipped to the trim (`-dUseTrimBox`), measured by its bbox
/// device, which takes the glyphs' outlines rather than their font boxes. A font box reaches above
/// the tallest capital and below the deepest descender, so measuring it (as `pdftotext -bbox`
/// does) flags text whose ink is well inside the safe area. The book preflight measures the same
/// ink from Pango's glyph extents.
///
/// Ghostscript 10.0's bbox device reads a glyph it caches as a bitmap by that bitmap, a few device
/// pixels larger than the outline, and loses glyphs drawn larger than about 900 device pixels. So
/// it reads twice: at 300 dpi, where every size is cached (a few pixels outward, never inward by
/// more than one), and at 1200 dpi, where text of ordinary sizes is drawn from its outlines (exact)
/// but slowly; only pages the coarse reading puts near the safe line are read finely. A side where
/// the coarse reading reaches further than its slack is a large glyph the fine one lost, and the
/// coarse reading stands there.
public enum PDFTextInk {
    /// The text's ink on each page that has some inside the trim, in points from the trim's top-left
    /// corner (the page tree's coordinates), keyed by page number.
    public static func bounds(_ pdf: URL) throws -> [Int: Rect] {
        try bounds(pdf, boxes: PDFPreflight.PageBoxes.parse(ReaderTool.run("pdfinfo", ["-box", "-f", "1", "-l", "100000", pdf.path])))
    }

    static let fineDPI = 1200, coarseDPI = 300
    /// How far the coarse reading may reach past the outline: twelve of its pixels.
    static let coarseSlack = 12 * 72.0 / Double(coarseDPI)

    static func bounds(_ pdf: URL, boxes: [Int: PDFPreflight.PageBoxes]) throws -> [Int: Rect] {
        let coarse = try reading(pdf, boxes: boxes, dpi: coarseDPI)
        return merge(fine: try reading(pdf, boxes: boxes, dpi: fineDPI), coarse: coarse)
    }

    /// Per side, the fine reading, unless the coarse one reaches further than its slack.
    static func merge(fine: [Int: Rect], coarse: [Int: Rect]) -> [Int: Rect] {
        var out: [Int: Rect] = [:]
        for (page, c) in coarse {
            guard let f = fine[page] else { out[page] = c; continue }
            let x0 = c.x < f.x - coarseSlack ? c.x : f.x
            let y0 = c.y < f.y - coarseSlack ? c.y : f.y
            let x1 = c.maxX > f.maxX + coarseSlack ? c.maxX : f.maxX
            let y1 = c.maxY > f.maxY + coarseSlack ? c.maxY : f.maxY
            out[page] = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        for (page, f) in fine where out[page] == nil { out[page] = f }
        return out
    }

    /// The fine reading of `pages`, split between one Ghostscript per processor: it is the slow one.
    static func fineReading(_ pdf: URL, boxes: [Int: PDFPreflight.PageBoxes], pages: [Int]) throws -> [Int: Rect] {
        guard !pages.isEmpty else { return [:] }
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, pages.count / 16))
        let chunks = (0..<parts).map { i in Array(pages[(pages.count * i / parts)..<(pages.count * (i + 1) / parts)]) }
        let results = Mutex<[Result<[Int: Rect], any Error>]>(Array(repeating: .success([:]), count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { i in
            let result = Result { try reading(pdf, boxes: boxes, dpi: fineDPI, pages: chunks[i]) }
            results.withLock { $0[i] = result }
        }
        return try results.withLock { all in try all.reduce(into: [:]) { $0.merge(try $1.get()) { a, _ in a } } }
    }

    /// One run of the bbox device at `dpi`, over every page or only `pages`.
    static func reading(_ pdf: URL, boxes: [Int: PDFPreflight.PageBoxes], dpi: Int, pages: [Int]? = nil) throws -> [Int: Rect] {
        let list = pages.map { ["-sPageList=" + $0.map(String.init).joined(separator: ",")] } ?? []
        let report = try ReaderTool.run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-dUseTrimBox", "-r\(dpi)",
                                               "-dFILTERIMAGE", "-dFILTERVECTOR", "-sDEVICE=bbox"] + list + [pdf.path],
                                        reading: .error)
        let numbers = pages ?? Array(1...max(1, boxes.keys.max() ?? 1))
        var out: [Int: Rect] = [:]
        var index = 0
        for line in report.split(separator: "\n") where line.hasPrefix("%%HiResBoundingBox:") {
            defer { index += 1 }
            guard index < numbers.count else { break }
            let page = numbers[index]
            let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            guard v.count == 4, v[2] > v[0], v[3] > v[1], let trim = boxes[page]?.trim, trim.count == 4 else { continue }
            let height = trim[3] - trim[1]
            out[page] = Rect(x: v[0], y: height - v[3], width: v[2] - v[0], height: v[3] - v[1])
        }
        return out
    }

    /// Pages whose text ink comes closer to the trim than the safety distance (on the binding side,
    /// the gutter the printer's table asks for, as the book preflight measures), one finding per
    /// page, naming the word (from `pdftotext -bbox`) nearest the edge the ink comes closest to.
    static func outsideSafeArea(_ pdf: URL, boxes: [Int: PDFPreflight.PageBoxes], profile: PrintProfile, name: String,
                                bindsOnRight: Bool = false) throws -> [PreflightFinding] {
        let insets = profile.safeInsets(pageCount: boxes.count)
        func edge(_ ink: Rect, page: Int) -> (edge: String, distance: Double, wanted: Double)? {
            guard let t = boxes[page]?.trim, t.count == 4 else { return nil }
            let trim = Rect(x: 0, y: 0, width: t[2] - t[0], height: t[3] - t[1])
            let safe = PageTreePreflight.safeRect(page: page, trim: trim, insets: insets, bindsOnRight: bindsOnRight)
            return PageTreePreflight.nearestEdge(ink, safe: safe, trim: trim)
        }
        // The coarse reading clears most pages; only those it puts near the line are read finely.
        let coarse = try reading(pdf, boxes: boxes, dpi: coarseDPI)
        let near = coarse.keys.sorted().filter { page in
            edge(coarse[page]!, page: page).map { $0.distance < $0.wanted - SafeArea.tolerance + coarseSlack } ?? false
        }
        let fine = try fineReading(pdf, boxes: boxes, pages: near)
        let ink = merge(fine: fine, coarse: coarse.filter { near.contains($0.key) })
        var close: [Int: (edge: String, distance: Double, wanted: Double)] = [:]
        for (page, r) in ink {
            guard let e = edge(r, page: page), e.distance < e.wanted - SafeArea.tolerance else { continue }
            close[page] = e
        }
        guard !close.isEmpty else { return [] }
        let words = try Words.read(pdf, boxes: boxes, pages: Set(close.keys))
        return close.keys.sorted().map { page in
            let e = close[page]!
            let word = Words.nearest(words[page] ?? [], to: e.edge)?.text ?? "?"
            return PreflightFinding(.error, .outsideSafeArea, page: page, file: name,
                                    SafeArea.message(text: word, edge: SafeArea.Edge(side: e.edge, distance: e.distance),
                                                     wanted: e.wanted, profile: profile))
        }
    }

    /// `pdftotext -bbox` words, in trim coordinates.
    enum Words {
        static func read(_ pdf: URL, boxes: [Int: PDFPreflight.PageBoxes], pages: Set<Int>) throws -> [Int: [(text: String, box: Rect)]] {
            let html = try ReaderTool.run("pdftotext", ["-bbox", "-f", "\(pages.min()!)", "-l", "\(pages.max()!)", pdf.path, "-"])
            let number = #"([0-9.-]+)"#
            let pattern = try NSRegularExpression(pattern: #"<word xMin=""# + number + #"" yMin=""# + number + #"" xMax=""# + number + #"" yMax=""# + number + #"">([^<]*)</word>"#)
            var out: [Int: [(text: String, box: Rect)]] = [:]
            var page = pages.min()! - 1
            for line in html.split(separator: "\n") {
                if line.contains("<page ") { page += 1; continue }
                guard pages.contains(page), line.contains("<word"), let b = boxes[page], b.trim.count == 4, b.media.count == 4 else { continue }
                let text = String(line)
                guard let m = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { continue }
                let v = (1...4).compactMap { Double(text[Range(m.range(at: $0), in: text)!]) }
                guard v.count == 4 else { continue }
                // pdftotext measures from the MediaBox's top-left; the trim's top-left is the origin here.
                let dx = b.trim[0] - b.media[0], dy = b.media[3] - b.trim[3]
                let word = Rect(x: v[0] - dx, y: v[1] - dy, width: v[2] - v[0], height: v[3] - v[1])
                let size = (w: b.trim[2] - b.trim[0], h: b.trim[3] - b.trim[1])
                guard word.maxX > 0, word.x < size.w, word.maxY > 0, word.y < size.h else { continue }
                out[page, default: []].append((String(text[Range(m.range(at: 5), in: text)!]), word))
            }
            return out
        }

        /// The word whose font box comes closest to `side`: the one carrying the ink found there.
        static func nearest(_ words: [(text: String, box: Rect)], to side: String) -> (text: String, box: Rect)? {
            switch side {
            case "left": return words.min { $0.box.x < $1.box.x }
            case "right": return words.max { $0.box.maxX < $1.box.maxX }
            case "top": return words.min { $0.box.y < $1.box.y }
            default: return words.max { $0.box.maxY < $1.box.maxY }
            }
        }
    }
}
