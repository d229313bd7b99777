import Foundation
import BookLayout

/// Which stretch of the narration reads which line. A clip reads one entry of the book's `pages`;
/// its time is shared among that entry's lines, over every physical page it was laid out on, in
/// proportion to their letters: the highlight then moves line by line at the reader's even pace,
/// and the clips cover the page's text in order, end to end.
struct NarrationTiming {
    struct Span {
        var audio: URL
        var begin: Double
        var end: Double
    }

    /// By physical page: each paragraph's lines' spans (nil for a line not read).
    private var spans: [Int: [[Span?]]] = [:]

    init(_ tree: PageTree, clips: [NarrationClip]) {
        for clip in clips {
            let pages = tree.pages.filter { $0.sourcePage == clip.sourcePage }
            let texts = pages.map { EPUBPageText($0) }
            let weights = texts.map { $0.paragraphs.map { $0.lines.map { Double(Self.letters($0.text)) } } }
            let total = weights.joined().joined().reduce(0, +)
            guard total > 0 else { continue }
            let perLetter = (clip.end - clip.begin) / total
            var at = clip.begin
            for (page, pageWeights) in zip(pages, weights) {
                spans[page.number] = pageWeights.map { paragraph in
                    paragraph.map { weight in
                        guard weight > 0 else { return nil }
                        defer { at += weight * perLetter }
                        return Span(audio: clip.file, begin: at, end: at + weight * perLetter)
                    }
                }
            }
        }
    }

    private static func letters(_ s: String) -> Int { s.unicodeScalars.filter { !$0.properties.isWhitespace }.count }

    /// The id each read line of the page gets in its document.
    func lineIDs(page: Int, text: EPUBPageText) -> [[String?]] {
        guard let page = spans[page] else { return [] }
        var n = 0
        return page.map { $0.map { span in
            guard span != nil else { return nil }
            n += 1
            return "l\(n)"
        } }
    }

    struct Overlay {
        var xml: String
        /// The sum of the clips as written (to the millisecond), which the package states.
        var duration: Double
    }

    /// The page's media overlay, or nil when none of its lines is read.
    func smil(page number: Int, text: EPUBPageText, document: String, audio: [URL: String]) -> Overlay? {
        guard let page = spans[number] else { return nil }
        let ids = lineIDs(page: number, text: text)
        var pars = "", duration = 0.0, n = 0
        for (p, paragraph) in page.enumerated() {
            for (l, span) in paragraph.enumerated() {
                guard let span, let id = ids[p][l], let entry = audio[span.audio] else { continue }
                let begin = (span.begin * 1000).rounded() / 1000, end = (span.end * 1000).rounded() / 1000
                guard end > begin else { continue }
                n += 1
                duration += end - begin
                pars += """
                <par id="par\(n)"><text src="../\(document)#\(id)"/><audio src="../\(entry)" clipBegin="\(Self.clock(begin))" clipEnd="\(Self.clock(end))"/></par>

                """
            }
        }
        guard n > 0 else { return nil }
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
        <body>
        \(pars)</body>
        </smil>

        """
        return Overlay(xml: xml, duration: (duration * 1000).rounded() / 1000)
    }

    /// A SMIL clock value, hours:minutes:seconds.milliseconds.
    static func clock(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}
