import Foundation
import Testing
import CShim
@testable import BookLayout

/// The shaping cache (`CShim/shim_shape_cache.c`): the pieces of a paragraph Pango shapes again
/// while it breaks lines are served from the paragraph's own glyphs, and a paragraph in a font whose
/// lookups leave the space alone is put together from its words' glyphs (`shim_word_shapes.c`); both
/// must come out exactly as shaping anew would.
@Suite struct ShapeCacheTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let language: String
        let text: String
        let style: TextStyle
        let width: Double
        let alignment: TextAlignment
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "English, justified and hyphenated", language: "en-US", text: sampleEnglish,
             style: bodyStyle, width: 220, alignment: .justify),
        // Ligatures (ff, fi, ffi) cut by hyphens and kerned pairs around them, in a very narrow column.
        Case(name: "ligatures cut by hyphens", language: "en-US",
             text: "The officials' efficient and affluent offices sufficiently affirmed the difficult, fluffy "
                 + "effluvia of traffic: suffixes, affixes, coffee, waffles and offerings, officiously.",
             style: bodyStyle, width: 70, alignment: .justify),
        // A line may end after an em dash, and Linux Libertine kerns the dash with the T, V, W or Y
        // after it: there, HarfBuzz says the glyphs cannot be cut, and the piece must be shaped anew.
        Case(name: "em dashes before kerned capitals", language: "en-US",
             text: "She waited—Tomorrow, she thought—Victory would come—Yes—When the tide turned—Tuesday, "
                 + "perhaps—Wednesday—Yesterday it was—Today it is—Very soon—Years from now—Words fail—Why?",
             style: bodyStyle, width: 90, alignment: .start),
        Case(name: "Arabic, joined letters", language: "ar",
             text: "كان يا ما كان في قديم الزمان، بنت صغيرة تحب القراءة والكتابة وتحلم بالسفر إلى بلاد بعيدة "
                 + "وتكتب كل مساء في دفترها الأزرق قصصا عن البحر والجبال والنجوم.",
             style: bodyStyle, width: 150, alignment: .start),
        Case(name: "Hebrew with English", language: "he",
             text: "בראשית ברא אלוהים את השמיים ואת הארץ, והארץ הייתה תוהו ובוהו (Genesis 1:1–2) וחושך על פני תהום.",
             style: bodyStyle, width: 140, alignment: .justify),
        Case(name: "Chinese", language: "zh",
             text: "很久很久以前，在一座开满桃花的小山村里，住着一个喜欢读书的小女孩。她每天清晨都坐在河边，看着流水，想象远方的城市和大海。",
             style: childrenStyle, width: 120, alignment: .justify),
        Case(name: "emoji among words", language: "en-US",
             text: "A smile 😀 and a heart ❤️ went walking 🚶‍♀️ past the bakery 🥐 towards the harbour ⚓ at dawn 🌅, "
                 + "where the fishing boats 🚤 were already coming home.",
             style: childrenStyle, width: 150, alignment: .justify),
    ]

    /// Lays `c` out on this thread (the cache is per thread), with the cache set as asked.
    static func layout(_ c: Case, cache: Bool = true) throws -> TextLayout {
        shim_shape_cache_set_enabled(cache ? 1 : 0)
        defer { shim_shape_cache_set_enabled(1) }
        return try makeTypesetter(language: c.language)
            .layout(c.text, style: c.style, width: c.width, alignment: c.alignment, hyphenate: true)
    }

    @Test(arguments: cases)
    func servedGlyphsAreWhatShapingAnewGives(_ c: Case) throws {
        shim_shape_cache_set_verifying(1)
        defer { shim_shape_cache_set_verifying(0) }
        let before = shim_shape_cache_thread_stats()
        let layout = try Self.layout(c)
        let after = shim_shape_cache_thread_stats()
        #expect(layout.lines.count > 2)
        #expect(after.served > before.served, "Pango's shaping of line pieces reaches the cache")
        #expect(after.mismatches == before.mismatches)
    }

    @Test(arguments: cases)
    func linesAndGlyphsAreTheSameWithoutTheCache(_ c: Case) throws {
        let cached = try Self.layout(c), shaped = try Self.layout(c, cache: false)
        #expect(cached.lines == shaped.lines)
        let glyphs = { (layout: TextLayout) in
            layout.glyphLines?.map { $0.map { run in run.glyphs.map { [Int64($0.index), Int64($0.x), Int64($0.y)] } } }
        }
        #expect(glyphs(cached) != nil)
        #expect(glyphs(cached) == glyphs(shaped))
    }

    @Test func aLongParagraphIsShapedMostlyOnce() throws {
        let paragraph = Array(repeating: sampleEnglish, count: 6).joined(separator: " ")
        let before = shim_shape_cache_thread_stats()
        let layout = try Self.layout(Case(name: "long", language: "en-US", text: paragraph, style: bodyStyle,
                                          width: 220, alignment: .justify))
        let after = shim_shape_cache_thread_stats()
        let shaped = after.shapedChars - before.shapedChars, served = after.servedChars - before.servedChars
        #expect(layout.lines.count > 30)
        // Without the cache Pango has such a paragraph shaped three to four times over; with it,
        // HarfBuzz shapes each word about once (and the fonts' sample texts, measured on first use,
        // and the ends of hyphenated lines), and most of what Pango asks for comes from the cache.
        #expect(served > shaped, "served \(served) characters, shaped \(shaped)")
        #expect(shaped < UInt64(paragraph.unicodeScalars.count) / 2, "shaped \(shaped) characters")
        #expect(after.wordChars - before.wordChars > UInt64(paragraph.unicodeScalars.count) / 2)
    }

    /// Every paragraph of Latin text is laid out twice, HarfBuzz shaping it whole alongside; the
    /// characters next to the spaces are all the letters, digits, punctuation and symbols Linux
    /// Libertine has in Latin-1 and Latin Extended-A, and some that are not safe to cut before.
    @Test func paragraphsFromWordsAreWhatShapingWholeGives() throws {
        let letters = (0x21...0x17F).compactMap(Unicode.Scalar.init).filter { !(0x7F...0xA0).contains($0.value) }
        var text = letters.map { "\($0)x \($0) x\($0) " }.joined()
        // A mark, a joiner and a variation selector after a space: no cut there.
        text += "a \u{301}b c \u{200D}d e \u{FE0F}f the end"
        shim_shape_cache_set_verifying(1)
        defer { shim_shape_cache_set_verifying(0) }
        for style in [bodyStyle, TextStyle(family: "Linux Libertine O", size: 12, weight: 700, italic: true, lineHeight: 1.4)] {
            let before = shim_shape_cache_thread_stats()
            let layout = try Self.layout(Case(name: "letters", language: "en-US", text: text, style: style,
                                              width: 300, alignment: .justify))
            let after = shim_shape_cache_thread_stats()
            #expect(layout.lines.count > 10)
            #expect(after.wordItems > before.wordItems, "the paragraph is put together from its words")
            #expect(after.mismatches == before.mismatches)
        }
    }

    /// Linux Libertine's semibold kerns the space with a T, V, W or Y after it, and Andika's lookups
    /// involve the space too: their paragraphs are shaped whole.
    @Test func fontsWhoseLookupsUseTheSpaceAreShapedWhole() throws {
        let semibold = TextStyle(family: "Linux Libertine O", size: 12, weight: 600, italic: false, lineHeight: 1.4)
        let text = "A Tale of Two Villages: Yonder Watchtowers, Vast Yards and Tall Trees. " + sampleEnglish
        shim_shape_cache_set_verifying(1)
        defer { shim_shape_cache_set_verifying(0) }
        for style in [semibold, childrenStyle] {
            let before = shim_shape_cache_thread_stats()
            let layout = try Self.layout(Case(name: style.family, language: "en-US", text: text, style: style,
                                              width: 220, alignment: .justify))
            let after = shim_shape_cache_thread_stats()
            #expect(layout.lines.count > 2)
            #expect(after.wordItems == before.wordItems, "\(style.family) \(style.weight)")
            #expect(after.served > before.served, "its line pieces still come from the paragraph's glyphs")
            #expect(after.mismatches == before.mismatches)
        }
    }
}
