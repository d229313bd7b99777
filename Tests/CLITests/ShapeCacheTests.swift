import Foundation
import Testing
import BookTestSupport

/// The program's shaping cache (`Sources/CShapeCache`), through the built binary: it replaces
/// HarfBuzz's functions for the whole process, so no test process may carry it. The pieces of a
/// paragraph Pango shapes again while it breaks lines are served from the paragraph's own glyphs,
/// and a paragraph in a font whose lookups leave the space alone is put together from its words'
/// glyphs; either way the pages must come out exactly as without the cache.
@Suite struct ShapeCacheTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let language: String
        let text: String
        var family = "Linux Libertine O"
        var size = 12.0
        var weight = 400
        var italic = false
        var lineHeight = 1.4
        /// The text column, in points.
        let width: Int
        let align: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "English, justified and hyphenated", language: "en-US", text: SampleTexts.english,
             width: 220, align: "justify"),
        // Ligatures (ff, fi, ffi) cut by hyphens and kerned pairs around them, in a very narrow column.
        Case(name: "ligatures cut by hyphens", language: "en-US",
             text: "The officials' efficient and affluent offices sufficiently affirmed the difficult, fluffy "
                 + "effluvia of traffic: suffixes, affixes, coffee, waffles and offerings, officiously.",
             width: 70, align: "justify"),
        // A line may end after an em dash, and Linux Libertine kerns the dash with the T, V, W or Y
        // after it: there, HarfBuzz says the glyphs cannot be cut, and the piece must be shaped anew.
        Case(name: "em dashes before kerned capitals", language: "en-US",
             text: "She waited—Tomorrow, she thought—Victory would come—Yes—When the tide turned—Tuesday, "
                 + "perhaps—Wednesday—Yesterday it was—Today it is—Very soon—Years from now—Words fail—Why?",
             width: 90, align: "start"),
        Case(name: "Arabic, joined letters", language: "ar",
             text: "كان يا ما كان في قديم الزمان، بنت صغيرة تحب القراءة والكتابة وتحلم بالسفر إلى بلاد بعيدة "
                 + "وتكتب كل مساء في دفترها الأزرق قصصا عن البحر والجبال والنجوم.",
             width: 150, align: "start"),
        Case(name: "Hebrew with English", language: "he",
             text: "בראשית ברא אלוהים את השמיים ואת הארץ, והארץ הייתה תוהו ובוהו (Genesis 1:1–2) וחושך על פני תהום.",
             width: 140, align: "justify"),
        Case(name: "Chinese", language: "zh",
             text: "很久很久以前，在一座开满桃花的小山村里，住着一个喜欢读书的小女孩。她每天清晨都坐在河边，看着流水，想象远方的城市和大海。",
             family: "Andika", size: 16, lineHeight: 1.5, width: 120, align: "justify"),
        Case(name: "emoji among words", language: "en-US",
             text: "A smile 😀 and a heart ❤️ went walking 🚶‍♀️ past the bakery 🥐 towards the harbour ⚓ at dawn 🌅, "
                 + "where the fishing boats 🚤 were already coming home.",
             family: "Andika", size: 16, lineHeight: 1.5, width: 150, align: "justify"),
    ]

    /// A memoir of one text page holding `c.text` in a column `c.width` points wide; with
    /// `everyRole`, the title, captions and page numbers are set in the body's face too.
    static func book(_ c: Case, everyRole: Bool = false) throws -> URL {
        let dir = try temporaryDirectory("shape-cache")
        let face: [String: Any] = ["family": c.family, "weight": c.weight, "italic": c.italic]
        var typography: [String: Any] = ["body": face.merging(["size": c.size, "lineHeight": c.lineHeight, "align": c.align,
                                                                "hyphenate": true, "indent": 0]) { $1 }]
        if everyRole {
            for role in ["title", "subtitle", "caption", "chapterTitle", "pageNumber"] { typography[role] = face }
        }
        let margin = ["top": "36pt", "bottom": "36pt", "inner": "36pt", "outer": "36pt"]
        let book: [String: Any] = [
            "schema": 1, "kind": "memoir", "title": "Shaping", "language": c.language, "theme": "memoir",
            "format": ["trim": ["width": "\(c.width + 72)pt", "height": "6in"], "margins": margin],
            "tokens": ["typography": typography],
            "pages": [["type": "text", "text": c.text]],
        ]
        let url = dir.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: book, options: [.sortedKeys]).write(to: url)
        return url
    }

    struct Export {
        let pdf: Data
        let pngs: [String: Data]
        let stats: ShapeCacheStats
    }

    /// `book` exported by the built program with the cache set as asked (`"1"`, `"0"`, `"verify"`).
    static func export(_ book: URL, cache setting: String, png: Bool = true) throws -> Export {
        let out = try temporaryDirectory("shape-cache-out")
        defer { try? FileManager.default.removeItem(at: out) }
        let pdf = out.appendingPathComponent("book.pdf"), pngs = out.appendingPathComponent("png")
        let (result, stats) = try bookrenderWithShapeCache(
            setting, ["export", book.path, "-o", pdf.path] + (png ? ["--png", pngs.path, "--dpi", "72"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: pngs.path)) ?? [] {
            files[name] = try Data(contentsOf: pngs.appendingPathComponent(name))
        }
        return Export(pdf: try Data(contentsOf: pdf), pngs: files, stats: stats)
    }

    @Test(arguments: cases)
    func theSameBytesWithTheCacheOnAndOff(_ c: Case) throws {
        let book = try Self.book(c)
        let on = try Self.export(book, cache: "1"), off = try Self.export(book, cache: "0")
        #expect(on.stats.state == "on", "\(on.stats)")
        #expect(on.stats["served"] > 0, "Pango's shaping of line pieces reaches the cache: \(on.stats)")
        #expect(off.stats.state == "off", "\(off.stats)")
        #expect(off.stats.why == "switched off by BOOKRENDER_SHAPE_CACHE=0")
        for name in ShapeCacheStats.counterNames { #expect(off.stats[name] == 0, "switched off, the cache does nothing: \(off.stats)") }
        #expect(on.pdf == off.pdf, "the PDFs differ")
        #expect(!on.pngs.isEmpty)
        #expect(on.pngs.keys.sorted() == off.pngs.keys.sorted())
        for (name, data) in on.pngs { #expect(data == off.pngs[name], "\(name) differs") }
    }

    /// Every call the cache serves is also shaped anew by HarfBuzz and compared, glyph by glyph.
    @Test(arguments: cases)
    func servedGlyphsAreWhatShapingAnewGives(_ c: Case) throws {
        let verified = try Self.export(try Self.book(c), cache: "verify", png: false)
        #expect(verified.stats.state == "verifying", "\(verified.stats)")
        #expect(verified.stats["served"] > 0, "\(verified.stats)")
        #expect(verified.stats["mismatches"] == 0, "\(verified.stats)")
    }

    @Test func aLongParagraphIsShapedMostlyOnce() throws {
        let paragraph = Array(repeating: SampleTexts.english, count: 6).joined(separator: " ")
        let c = Case(name: "long", language: "en-US", text: paragraph, width: 220, align: "justify")
        let stats = try Self.export(try Self.book(c), cache: "1", png: false).stats
        let characters = UInt64(paragraph.unicodeScalars.count)
        // Such a paragraph is shaped when it is measured and again line by line; with the cache,
        // HarfBuzz shapes each word about once (and the fonts' sample texts, measured on first use,
        // the title and page numbers, and the ends of hyphenated lines), and most of what Pango asks
        // for comes from words already shaped or from the cache.
        #expect(stats.state == "on")
        #expect(stats["servedChars"] + stats["wordChars"] > 2 * stats["shapedChars"], "\(stats)")
        #expect(stats["shapedChars"] < characters / 2, "\(stats)")
        #expect(stats["wordChars"] > characters / 2, "\(stats)")
    }

    /// Every Latin-1 and Latin Extended-A letter, digit, punctuation mark and symbol Linux Libertine
    /// has, next to spaces, in its regular and bold italic: paragraphs put together from their
    /// words' glyphs are what HarfBuzz gives shaping them whole, and the pages are the same.
    @Test func paragraphsFromWordsAreWhatShapingWholeGives() throws {
        let letters = (0x21...0x17F).compactMap(Unicode.Scalar.init).filter { !(0x7F...0xA0).contains($0.value) }
        var text = letters.map { "\($0)x \($0) x\($0) " }.joined()
        // A mark, a joiner and a variation selector after a space: no cut there.
        text += "a \u{301}b c \u{200D}d e \u{FE0F}f the end"
        for (weight, italic) in [(400, false), (700, true)] {
            let c = Case(name: "letters", language: "en-US", text: text, weight: weight, italic: italic, width: 300, align: "justify")
            let book = try Self.book(c)
            let verified = try Self.export(book, cache: "verify", png: false).stats
            #expect(verified.state == "verifying")
            #expect(verified["wordItems"] > 0, "the paragraph is put together from its words: \(verified)")
            #expect(verified["mismatches"] == 0, "\(verified)")
            let on = try Self.export(book, cache: "1"), off = try Self.export(book, cache: "0")
            #expect(on.pdf == off.pdf, "weight \(weight), italic \(italic): the PDFs differ")
            #expect(on.pngs == off.pngs, "weight \(weight), italic \(italic): the PNGs differ")
        }
    }

    /// More distinct words than a thread keeps for a font (2^15): the cache starts over between
    /// paragraphs, never while it puts one together (whose words it holds), and the pages come out
    /// as without it.
    @Test func moreDistinctWordsThanTheCacheKeeps() throws {
        // Words no dictionary has, each once ("aac", "bac", …): 40 paragraphs of 850.
        func word(_ n: Int) -> String {
            var n = n, out = ""
            repeat { out.append(Character(Unicode.Scalar(UInt8(0x61 + n % 26)))); n /= 26 } while n > 0
            return out + "ac"
        }
        let paragraphs = (0..<40).map { p in (0..<850).map { word(p * 850 + $0) }.joined(separator: " ") }
        let c = Case(name: "many words", language: "en-US", text: paragraphs.joined(separator: "\n"), width: 400, align: "start")
        let book = try Self.book(c)
        let on = try Self.export(book, cache: "1", png: false), off = try Self.export(book, cache: "0", png: false)
        #expect(on.stats["wordItems"] >= 40, "\(on.stats)")
        #expect(on.pdf == off.pdf, "the PDFs differ")
    }

    /// Linux Libertine's semibold kerns the space with a T, V, W or Y after it, and Andika's lookups
    /// involve the space too: their paragraphs are shaped whole, their line pieces still served.
    @Test func fontsWhoseLookupsUseTheSpaceAreShapedWhole() throws {
        let text = "A Tale of Two Villages: Yonder Watchtowers, Vast Yards and Tall Trees. " + SampleTexts.english
        for (family, weight) in [("Linux Libertine O", 600), ("Andika", 400)] {
            let c = Case(name: family, language: "en-US", text: text, family: family, weight: weight, width: 220, align: "justify")
            let stats = try Self.export(try Self.book(c, everyRole: true), cache: "verify", png: false).stats
            #expect(stats["wordItems"] == 0, "\(family) \(weight): \(stats)")
            #expect(stats["served"] > 0, "its line pieces still come from the paragraph's glyphs: \(stats)")
            #expect(stats["mismatches"] == 0, "\(stats)")
        }
    }

    @Test func anUnknownSettingSwitchesTheCacheOffAndSaysSo() throws {
        let (result, stats) = try bookrenderWithShapeCache("yes", ["--help"])
        #expect(result.status == 0)
        #expect(stats.state == "off")
        #expect(result.stderr.contains("BOOKRENDER_SHAPE_CACHE=yes is not 0, 1 or verify"), "\(result.stderr)")
    }
}
