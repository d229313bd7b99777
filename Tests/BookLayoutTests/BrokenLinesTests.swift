import Foundation
import Testing
import CGraphics
import BookTestSupport
@testable import BookLayout

/// Lines set from a block's measurement (`BrokenLines`) are the lines Pango sets when it lays the
/// block out again in the breaks total fit chose: the same text per line, the same glyphs at the
/// same places, the same hyphens, widths, ink and text behind the glyphs.
@Suite struct BrokenLinesTests {
    static let texts: [(name: String, language: String, text: String)] = [
        ("English", "en-US", SampleTexts.english + "\n\n" + SampleTexts.english.split(separator: " ").reversed().joined(separator: " ")),
        ("paths", "en-US", """
            For Unix machines, the configuration files are usually found in /etc/, but they may be located in a \
            sub-directory of /usr/local/. See https://example.com/a/very/long/path/that/cannot/possibly/fit/on/one/line \
            for more, or ~/hello.txt, which becomes /home/rhertzog/hello.txt — an “interesting” case, isn’t it?
            """),
        ("French", "fr-FR", """
            « Il était une fois », dit-elle, « une maison étroite et haute, peinte d’un jaune que mon père \
            appelait la couleur du beurre. » Les enfants écoutaient, émerveillés, l’histoire extraordinairement \
            longue de leurs grands-parents, qui avaient traversé l’Atlantique.
            """),
        ("German", "de-DE", """
            „Es war einmal“, sagte sie, „ein schmales, hohes Haus, gestrichen in einem Gelb, das mein Vater \
            Butterfarbe nannte.“ Die Donaudampfschifffahrtsgesellschaft beförderte Übernachtungsgäste und \
            Lebensmittelunverträglichkeiten gleichermaßen zuverlässig.
            """),
    ]

    @Test(arguments: [TextAlignment.justify, .start])
    func linesSetFromTheMeasurementAreThoseOfPangosSecondLayout(alignment: TextAlignment) throws {
        var styles = [bodyStyle, childrenStyle]
        var indented = bodyStyle
        indented.firstLineIndent = 14
        indented.indentsFirstParagraph = false
        var hanging = bodyStyle
        hanging.firstLineIndent = -10
        styles += [indented, hanging]
        var compared = 0, setFromMeasurement = 0, total = 0
        for sample in Self.texts {
            let typesetter = try makeTypesetter(language: sample.language)
            for style in styles {
                for width in [140.0, 190.0, 260.0, 333.0] {
                    total += 1
                    typesetter.setsLinesFromMeasurement = true
                    let ours = typesetter.layout(sample.text, style: style, width: width, alignment: alignment, hyphenate: true)
                    typesetter.setsLinesFromMeasurement = false
                    let pango = typesetter.layout(sample.text, style: style, width: width, alignment: alignment, hyphenate: true)
                    #expect(!pango.blocks.contains { $0.broken != nil })
                    if ours.blocks.contains(where: { $0.broken != nil }) { setFromMeasurement += 1 }
                    // Pango may not take the lines total fit chose (then it sets other breaks): only
                    // the same lines compare.
                    guard ours.lines.map(\.text) == pango.lines.map(\.text) else { continue }
                    compared += 1
                    let label = "\(sample.name), \(style.family) \(style.firstLineIndent), \(width) pt"
                    #expect(ours.text == pango.text, "\(label)")
                    #expect(ours.lines == pango.lines, "\(label)")
                    for i in ours.lines.indices {
                        #expect(ours.inkBounds(line: i) == pango.inkBounds(line: i), "\(label), line \(i)")
                    }
                    let a = try #require(ours.glyphLines), b = try #require(pango.glyphLines)
                    #expect(a.count == b.count)
                    for (i, (x, y)) in zip(a, b).enumerated() {
                        #expect(Self.same(x, y), "\(label), line \(i): \(ours.lines[i].text)")
                    }
                }
            }
        }
        #expect(setFromMeasurement == total, "every block here can be set from its measurement")
        #expect(compared * 10 >= total * 9, "Pango takes the chosen lines of \(compared) of \(total) texts")
    }

    @Test func aTextWithAGlyphNoFontHasIsLaidOutByPangoThroughout() throws {
        let text = SampleTexts.english + "\n\n\u{05D0}\u{05D1} and a missing \u{0378} character."
        let layout = try makeTypesetter().layout(text, style: bodyStyle, width: 200, alignment: .justify, hyphenate: true)
        #expect(layout.unknownGlyphCount > 0)
        #expect(!layout.blocks.contains { $0.broken != nil }, "every line can be drawn by Pango")
        #expect(layout.lines.indices.allSatisfy { layout.pangoLine($0) != nil })
    }

    @Test func paragraphsOfSeveralFontsAreLaidOutByPango() throws {
        let text = "Plain words first.\n\nThen a line of 日本語 inside Latin text that goes on long enough to wrap twice or more in the column."
        let layout = try makeTypesetter().layout(text, style: bodyStyle, width: 150, alignment: .justify, hyphenate: true)
        // One block per paragraph of its own direction.
        #expect(layout.blocks.count == 2)
        #expect(layout.blocks[0].broken != nil)
        #expect(layout.blocks[1].broken == nil, "its baseline may shift against the line's first run")
        #expect(layout.lines.count > 3)
        #expect(layout.pangoLine(0) == nil && layout.lines.indices.dropFirst().allSatisfy { layout.pangoLine($0) != nil })
    }

    private static func same(_ a: [GlyphRun], _ b: [GlyphRun]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            guard x.font.pointer == y.font.pointer, x.x == y.x, x.y == y.y, x.text == y.text, x.backward == y.backward,
                  x.colorGlyphs == y.colorGlyphs, x.endsInAddedHyphen == y.endsInAddedHyphen,
                  x.glyphs.map(\.index) == y.glyphs.map(\.index), x.glyphs.map(\.x) == y.glyphs.map(\.x),
                  x.glyphs.map(\.y) == y.glyphs.map(\.y),
                  x.clusters.map(\.num_bytes) == y.clusters.map(\.num_bytes),
                  x.clusters.map(\.num_glyphs) == y.clusters.map(\.num_glyphs) else { return false }
        }
        return true
    }
}
