import Foundation
import BookConfig
import BookLayout

/// One page as an XHTML content document of a fixed-layout book: the page's picture filling the
/// viewport and the live text over it, a paragraph to an element (a heading for a title), a line
/// to a span (what a media overlay highlights), a word to an absolutely placed span.
struct EPUBPageDocument {
    var page: PageNode
    var text: EPUBPageText
    /// The id of each line that a media overlay reads, by paragraph and line.
    var lineIDs: [[String?]]
    var image: String
    var alt: String
    var viewport: (width: Int, height: Int)
    var language: String
    var title: String

    func xhtml(fonts: inout EPUBFonts) -> String {
        let k = EPUBWriter.pixelsPerPoint
        var body = "<img class=\"page\" src=\"\(image)\" alt=\"\(XML.escape(alt))\"/>\n"
        for (p, paragraph) in text.paragraphs.enumerated() {
            let element: String
            var attributes = ""
            switch paragraph.structure {
            case .title: element = "h1"
            case .heading: element = "h2"
            case .artifact: element = "div"; attributes = " aria-hidden=\"true\""
            default: element = "p"
            }
            body += "<\(element) class=\"tx\" style=\"color:\(Self.css(paragraph.color))\"\(attributes)>"
            for (l, line) in paragraph.lines.enumerated() {
                let id = lineIDs.indices.contains(p) && lineIDs[p].indices.contains(l) ? lineIDs[p][l] : nil
                body += "<span class=\"ln\"\(id.map { " id=\"\($0)\"" } ?? "")>"
                for word in line.words {
                    let face = fonts.face(for: word.fontFile)
                    let size = word.size * k
                    let facts = face?.facts ?? .typical
                    // A line box of no height puts the baseline half the ascent less the descent
                    // (each rounded to whole pixels, as Blink and WebKit do) below the box's top.
                    let lift = ((facts.ascent * size).rounded() - (facts.descent * size).rounded()) / 2
                    var classes = "w " + (face?.family ?? "f0")
                    if word.hyphen { classes += " hy" }
                    let dir = word.rightToLeft ? " dir=\"rtl\"" : ""
                    body += "<span class=\"\(classes)\"\(dir) style=\"left:\(Self.number(word.x * k))px;top:\(Self.number(word.baseline * k - lift))px;font-size:\(Self.number(size))px\">\(XML.escape(word.text))</span>"
                }
                // The newline is the space between the words of two lines, but a word that layout
                // broke with a hyphen goes on in the next line's first word.
                body += line.words.last?.hyphen == true ? "</span>" : "</span>\n"
            }
            body += "</\(element)>\n"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="\(XML.escape(language))" xml:lang="\(XML.escape(language))">
        <head>
        <meta charset="UTF-8"/>
        <meta name="viewport" content="width=\(viewport.width), height=\(viewport.height)"/>
        <title>\(XML.escape(title)), page \(page.number)</title>
        <link rel="stylesheet" type="text/css" href="css/book.css"/>
        </head>
        <body>
        <div class="sheet" epub:type="\(page.number == 1 ? "cover" : "bodymatter")">
        \(body)</div>
        </body>
        </html>

        """
    }

    /// One style sheet for every page: the viewport's size, the embedded faces, the word spans.
    static func styleSheet(fonts: EPUBFonts, viewport: (width: Int, height: Int)) -> String {
        var css = fonts.css
        css += """
        html, body { margin: 0; padding: 0; width: \(viewport.width)px; height: \(viewport.height)px; overflow: hidden; }
        .sheet { position: relative; width: \(viewport.width)px; height: \(viewport.height)px; overflow: hidden; }
        img.page { position: absolute; left: 0; top: 0; width: \(viewport.width)px; height: \(viewport.height)px; margin: 0; }
        .tx { margin: 0; padding: 0; font-size: inherit; font-weight: normal; font-style: normal; }
        .w { position: absolute; margin: 0; padding: 0; line-height: 0; white-space: nowrap; font-synthesis: none;
             font-kerning: normal; text-rendering: geometricPrecision; }
        .hy::after { content: "-"; }
        .f0 { font-family: serif; }
        .-epub-media-overlay-active .w, .kobo-smil-highlight .w { background-color: rgba(255, 214, 102, 0.6); }

        """
        for face in fonts.faces {
            css += ".\(face.family) { font-family: \(face.entry != nil ? "\"\(face.family)\", " : "")\(face.file.lowercased().contains("emoji") ? "sans-serif" : "serif"); }\n"
        }
        return css
    }

    static func css(_ color: Color) -> String {
        color.alpha < 1 ? "rgba(\(Int(color.red * 255)), \(Int(color.green * 255)), \(Int(color.blue * 255)), \(number(color.alpha)))"
            : String(color.hex.prefix(7))
    }

    /// Two decimals, without a trailing zero: positions to a hundredth of a pixel.
    static func number(_ v: Double) -> String {
        var s = String(format: "%.2f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}

enum XML {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // Characters XML 1.0 does not allow, and the line separator Pango keeps for a break.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            case "\u{2028}": out += " "
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
