import Foundation
import Testing
import BookTestSupport
@testable import BookLayout

/// Total-fit line breaking: the breaker on measures of its own, then on text Pango sets.
@Suite struct LineBreakingTests {
    // MARK: The breaker

    /// A paragraph of words (each a list of syllable widths; a word of several may be hyphenated
    /// between them) separated by spaces 12 wide that stretch by 6 and shrink by 4.
    struct Words {
        var natural: [Double] = [0]
        var stretch: [Double] = [0]
        var shrink: [Double] = [0]
        var candidates: [ParagraphBreaker.Candidate] = []

        init(_ words: [[Double]], hyphen: Double = 8) {
            for (w, syllables) in words.enumerated() {
                if w > 0 {
                    add(12, stretch: 6, shrink: 4)
                    candidates.append(.init(position: natural.count - 1, contentEnd: natural.count - 2, kind: .space))
                }
                for (s, width) in syllables.enumerated() {
                    if s > 0 { candidates.append(.init(position: natural.count - 1, contentEnd: natural.count - 1, kind: .hyphen, addedWidth: hyphen)) }
                    add(width)
                }
            }
            candidates.append(.init(position: natural.count - 1, contentEnd: natural.count - 1, kind: .end))
        }

        mutating func add(_ width: Double, stretch s: Double = 0, shrink k: Double = 0) {
            natural.append(natural.last! + width)
            stretch.append(stretch.last! + s)
            shrink.append(shrink.last! + k)
        }

        func breaker(width: Double) -> ParagraphBreaker {
            ParagraphBreaker(natural: natural, stretch: stretch, shrink: shrink, start: 0, candidates: candidates,
                             firstLineWidth: width, lineWidth: width)
        }

        /// Pango's way: each line ends at the last break where it still fits at its natural width.
        func firstFit(width: Double) -> [Int] {
            var chosen: [Int] = []
            var start = 0, last: Int?
            var i = 0
            while i < candidates.count {
                let c = candidates[i]
                let w = natural[c.contentEnd] - natural[start] + c.addedWidth
                if w <= width || last == nil {
                    if c.kind == .end { chosen.append(i); break }
                    last = i
                    i += 1
                } else {
                    chosen.append(last!)
                    start = candidates[last!].position
                    last = nil
                }
            }
            return chosen
        }

        /// The stretch ratio of each line but the last.
        func ratios(_ chosen: [Int], breaker: ParagraphBreaker) -> [Double] {
            var start = 0
            var out: [Double] = []
            for (n, i) in chosen.dropLast().enumerated() {
                out.append(breaker.ratio(from: start, to: candidates[i], lineIndex: n))
                start = candidates[i].position
            }
            return out
        }
    }

    /// As TeX's \\pretolerance: a paragraph that sets with every line within its spaces' stretch
    /// without hyphenating a word is not hyphenated, although a hyphen would make a line tighter.
    @Test func aParagraphThatSetsWellUnhyphenatedIsNotHyphenated() {
        let syllables: [[Double]] = [[20], [14, 16], [24], [18, 12, 10], [22], [16, 14], [26], [20], [12, 18], [24], [30], [16, 16], [20]]
        let hyphenable = Words(syllables), whole = Words(syllables.map { [$0.reduce(0, +)] })
        var hyphenSaved = 0
        for width in stride(from: 90.0, through: 200.0, by: 1) {
            let plain = whole.breaker(width: width)
            let plainBreaks = plain.breaks()
            guard whole.ratios(plainBreaks, breaker: plain).allSatisfy({ $0 <= 1 }) else { continue }
            let chosen = hyphenable.breaker(width: width).breaks()
            #expect(!chosen.contains { hyphenable.candidates[$0].kind == .hyphen }, "width \(width): hyphenated a paragraph that sets well whole")
            var eager = hyphenable.breaker(width: width)
            eager.parameters.pretolerance = nil
            if eager.breaks().contains(where: { hyphenable.candidates[$0].kind == .hyphen }) { hyphenSaved += 1 }
        }
        #expect(hyphenSaved > 0, "no width where demerits alone would have hyphenated: the test shows nothing")
    }

    @Test func aLooseFirstFitLineIsAvoidedByShrinkingAnother() throws {
        let words = Words([[27], [27], [27], [40], [48], [20]])
        let breaker = words.breaker(width: 100)
        let greedy = words.firstFit(width: 100)
        let optimal = breaker.breaks()
        // First fit ends the first line after two words (the third does not fit unshrunk), and
        // the second line is then far too loose.
        #expect(words.ratios(greedy, breaker: breaker).contains { $0 > 2 })
        let ratios = words.ratios(optimal, breaker: breaker)
        #expect(ratios.allSatisfy { $0 >= -1 && $0 <= 1 }, "\(ratios)")
        #expect(optimal.last == words.candidates.count - 1)
    }

    @Test func theLastLineIsSetAtItsNaturalWidth() throws {
        let words = Words([[30], [30], [10]])
        let breaker = words.breaker(width: 100)
        let chosen = breaker.breaks()
        #expect(breaker.ratio(from: 0, to: words.candidates.last!, lineIndex: 0) <= 0)
        #expect(chosen == [words.candidates.count - 1])
    }

    @Test func aWordWiderThanTheLineStillGivesBreaks() throws {
        let words = Words([[20], [150], [20]])
        let chosen = words.breaker(width: 100).breaks()
        #expect(chosen.last == words.candidates.count - 1)
        #expect(chosen.count == 3)
    }

    // MARK: Text set by Pango

    /// How far each justified line's spaces are stretched beyond their natural width, in ems.
    func extraSpace(_ layout: TextLayout, typesetter: Typesetter) -> [Double] {
        var out: [Double] = []
        for line in layout.lines where line.indexInParagraph < line.paragraphLineCount - 1 {
            let text = line.text.replacingOccurrences(of: "\u{00AD}", with: "").trimmingCharacters(in: .whitespaces)
                + (line.endsWithSoftHyphen ? "-" : "")
            let spaces = text.filter { $0 == " " }.count
            guard spaces > 0 else { continue }
            let natural = typesetter.layout(text, style: layout.style, width: 0, alignment: .start, hyphenate: false)
            let available = layout.width - (line.indexInParagraph == 0 ? layout.style.firstLineIndent : 0)
            out.append((available - natural.lines[0].width) / Double(spaces) / layout.style.size)
        }
        return out
    }

    @Test func optimalBreakingSetsNoLooseLineWhereFirstFitDoes() throws {
        let typesetter = try makeTypesetter()
        let loose = 0.45  // em beyond the natural space
        var compared = 0
        for width in stride(from: 186.0, through: 330.0, by: 12) {
            let firstFit = typesetter.layout(SampleTexts.english, style: bodyStyle, width: width, alignment: .justify,
                                             hyphenate: true, lineBreaking: .firstFit)
            guard extraSpace(firstFit, typesetter: typesetter).contains(where: { $0 > loose }) else { continue }
            compared += 1
            let optimal = typesetter.layout(SampleTexts.english, style: bodyStyle, width: width, alignment: .justify,
                                            hyphenate: true, lineBreaking: .optimal)
            let after = extraSpace(optimal, typesetter: typesetter)
            #expect(after.allSatisfy { $0 <= loose }, "\(width): \(after)")
            #expect(optimal.lines.map(\.text).joined().replacingOccurrences(of: "\u{00AD}", with: "") == SampleTexts.english)
            for line in optimal.lines { #expect(line.x >= -0.01 && line.x + line.width <= width + 0.01, "\(line)") }
        }
        try #require(compared > 0, "first fit sets no loose line at any of these widths")
    }

    /// Five words, then a name ("sys." and "argv", which may break after its dot), then two more
    /// words; the line is as wide as the five words with their four spaces stretched by
    /// `stretchOfFive` of their stretch, and the name's first piece `piece` wide.
    static func nameAfterFiveWords(stretchOfFive: Double, piece: Double) -> (ParagraphBreaker, Int) {
        var natural: [Double] = [0], stretch: [Double] = [0], shrink: [Double] = [0]
        var candidates: [ParagraphBreaker.Candidate] = []
        func add(_ width: Double, _ s: Double = 0, _ k: Double = 0) {
            natural.append(natural.last! + width); stretch.append(stretch.last! + s); shrink.append(shrink.last! + k)
        }
        func space() {
            add(12, 6, 4)
            candidates.append(.init(position: natural.count - 1, contentEnd: natural.count - 2, kind: .space))
        }
        for w in 0..<5 { if w > 0 { space() }; add(40) }
        let five = natural.last!
        space()
        add(piece)
        let inToken = candidates.count
        candidates.append(.init(position: natural.count - 1, contentEnd: natural.count - 1, kind: .inToken))
        add(30)
        for _ in 0..<2 { space(); add(40) }
        candidates.append(.init(position: natural.count - 1, contentEnd: natural.count - 1, kind: .end))
        let width = five + stretchOfFive * 24
        return (ParagraphBreaker(natural: natural, stretch: stretch, shrink: shrink, start: 0, candidates: candidates,
                                 firstLineWidth: width, lineWidth: width), inToken)
    }

    /// A name broken inside ("sys." at a line's end) reads as two words in the PDF's text and on
    /// the page: total fit takes such a break only where the line would otherwise be very loose.
    @Test func aNameIsBrokenOnlyToSaveAVeryLooseLine() {
        // The five words at four fifths of their stretch, or the name's piece filling the line.
        let (fair, fairToken) = Self.nameAfterFiveWords(stretchOfFive: 0.8, piece: 7)
        #expect(!fair.breaks().contains(fairToken), "broke the name to save a line at 0.8 of its stretch")
        // Far looser than all their stretch: the name is broken.
        let (loose, looseToken) = Self.nameAfterFiveWords(stretchOfFive: 1.9, piece: 33)
        #expect(loose.breaks().contains(looseToken), "left a line at 1.9 of its stretch rather than break the name")
    }

    @Test func onlyTheSoftHyphensWhereALineEndsStayInTheText() throws {
        let layout = try makeTypesetter().layout(SampleTexts.english, style: bodyStyle, width: 150, alignment: .justify,
                                                 hyphenate: true)
        let hyphens = layout.text.filter { $0 == "\u{00AD}" }.count
        #expect(hyphens == layout.lines.filter(\.endsWithSoftHyphen).count)
        #expect(layout.text.replacingOccurrences(of: "\u{00AD}", with: "") == SampleTexts.english)
    }

    @Test func aPathIsBrokenAfterASlashOrADotWithoutAHyphen() throws {
        let text = "To load it at start, the file checks if os.path.isfile('.pythonrc.py'): and then reads "
            + "/usr/share/doc/debian-handbook/html/en-US/index.html before anything else happens here."
        for alignment in [TextAlignment.justify, .start] {
            let layout = try makeTypesetter().layout(text, style: bodyStyle, width: 130, alignment: alignment, hyphenate: true)
            #expect(layout.lines.map(\.text).joined().replacingOccurrences(of: "\u{00AD}", with: "") == text)
            let inToken = layout.lines.dropLast().enumerated().filter { i, line in
                guard let last = line.text.last, "/.".contains(last) else { return false }
                return layout.lines[i + 1].text.first.map { !$0.isWhitespace } ?? false
            }
            #expect(!inToken.isEmpty, "\(alignment): \(layout.lines.map(\.text))")
            for (_, line) in inToken { #expect(!line.endsWithSoftHyphen) }
            for line in layout.lines { #expect(line.x >= -0.01 && line.x + line.width <= 130.01, "\(line)") }
        }
    }

    /// A justified line that is only a piece of an address has no space to stretch: it is set
    /// ragged rather than spread letter by letter.
    @Test func piecesOfAnAddressAreSetRaggedNotSpread() throws {
        let typesetter = try makeTypesetter()
        let text = "The recording is at https://example.com/archive/family/recordings/1962/linden-street/"
            + "grandmother-ruth/kitchen-table/side-b/track-07-apple-cake.mp3?download=true&format=original and nowhere else."
        for width in stride(from: 200.0, through: 320.0, by: 20) {
            let layout = typesetter.layout(text, style: bodyStyle, width: width, alignment: .justify, hyphenate: true)
            let pieces = layout.lines.dropLast().filter { !$0.text.trimmingCharacters(in: .whitespaces).contains(" ") }
            try #require(pieces.count >= 2, "\(layout.lines.map(\.text))")
            for piece in pieces {
                let natural = typesetter.layout(piece.text.trimmingCharacters(in: .whitespaces), style: bodyStyle, width: 0,
                                                alignment: .start, hyphenate: false)
                #expect(abs(piece.width - natural.lines[0].width) < 0.5, "spread: \(piece)")
            }
        }
    }

    /// The sample memoir's running text, its paragraphs as they are in the book.
    func memoirText() throws -> String {
        let data = try Data(contentsOf: Repository.samples.appendingPathComponent("memoir/book.json"))
        let book = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pages = try #require(book["pages"] as? [[String: Any]])
        return pages.filter { $0["type"] as? String == "text" }.compactMap { $0["text"] as? String }.joined(separator: "\n\n")
    }

    /// The paragraphs of a memoir of real prose written for the tests (Tests/ProseBooks).
    func clerkText() throws -> String {
        let data = try Data(contentsOf: Repository.root.appendingPathComponent("Tests/ProseBooks/the-literal-clerk/book.json"))
        let book = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pages = try #require(book["pages"] as? [[String: Any]])
        return pages.filter { $0["type"] as? String == "text" }.compactMap { $0["text"] as? String }.joined(separator: "\n\n")
    }

    /// A hyphen on a paragraph's next-to-last line leaves its last line a piece of a word ("son."):
    /// weighed as TeX's final hyphen demerits weigh it, it is rare in real prose, and a last line
    /// that is the rest of a hyphenated word alone never happens.
    @Test func fewParagraphsEndOnAHyphenatedWord() throws {
        let typesetter = try makeTypesetter()
        let text = try memoirText() + "\n\n" + clerkText()
        var paragraphs = 0, hyphenated: [String] = []
        for width in stride(from: 240.0, through: 340.0, by: 20) {
            let layout = typesetter.layout(text, style: bodyStyle, width: width, alignment: .justify, hyphenate: true)
            for lines in Dictionary(grouping: layout.lines, by: \.paragraph).values where lines.count >= 2 {
                paragraphs += 1
                let penultimate = lines[lines.count - 2], last = lines[lines.count - 1]
                guard penultimate.endsWithSoftHyphen || penultimate.text.hasSuffix("-") else { continue }
                hyphenated.append("\(width): \(penultimate.text) / \(last.text)")
                #expect(last.text.trimmingCharacters(in: .whitespaces).contains(" "), "a fragment alone: \(penultimate.text) / \(last.text)")
            }
        }
        try #require(paragraphs > 100)
        let share = Double(hyphenated.count) / Double(paragraphs)
        #expect(share < 0.06, "\(hyphenated.count) of \(paragraphs) paragraphs: \(hyphenated.prefix(12))")
    }

    @Test func noTwoHyphenatedLinesFollowEachOther() throws {
        let typesetter = try makeTypesetter()
        let text = try memoirText()
        var firstFitPairs = 0
        for width in stride(from: 200.0, through: 330.0, by: 26) {
            for breaking in [LineBreaking.firstFit, .optimal] {
                let layout = typesetter.layout(text, style: bodyStyle, width: width, alignment: .justify, hyphenate: true,
                                               lineBreaking: breaking)
                let pairs = zip(layout.lines, layout.lines.dropFirst()).filter { $0.endsWithSoftHyphen && $1.endsWithSoftHyphen }
                if breaking == .firstFit { firstFitPairs += pairs.count } else { #expect(pairs.isEmpty, "\(width): \(pairs.map(\.0.text))") }
            }
        }
        try #require(firstFitPairs > 0, "the text offers no consecutive hyphens to avoid")
    }

    @Test(arguments: [TextAlignment.justify, .start])
    func noLineIsOverfullInANarrowColumn(alignment: TextAlignment) throws {
        let text = sampleProse(paragraphs: 4) + "\n\nSee https://example.com/a/very/long/path/that/cannot/fit for more. "
            + "Pneumonoultramicroscopicsilicovolcanoconiosis! " + SampleTexts.english
        for width in [60.0, 75.0, 100.0] {
            let layout = try makeTypesetter().layout(text, style: bodyStyle, width: width, alignment: alignment, hyphenate: true)
            for line in layout.lines { #expect(line.x >= -0.01 && line.x + line.width <= width + 0.01, "\(width): \(line.text) \(line.x) \(line.width)") }
            #expect(layout.lines.map(\.text).joined().replacingOccurrences(of: "\u{00AD}", with: "")
                == Typesetter.normalizedParagraphs(text).replacingOccurrences(of: "\n", with: ""))
        }
    }

    @Test func rightToLeftLinesStayInTheColumn() throws {
        let text = String(repeating: "שלום עולם, מה שלומך היום? ", count: 12)
        let layout = try makeTypesetter().layout(text, style: bodyStyle, width: 160, alignment: .justify, hyphenate: false)
        #expect(layout.lines.count > 2)
        for line in layout.lines.dropLast() { #expect(abs(line.x) < 0.01 && abs(line.width - 160) < 0.5, "\(line)") }
        let last = layout.lines.last!
        #expect(abs(last.x + last.width - 160) < 0.01, "\(last)")
    }
}
