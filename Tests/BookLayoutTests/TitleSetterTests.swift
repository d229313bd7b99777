import Testing
import Foundation
@testable import BookLayout

/// Titles break into lines of similar length, keep every word whole, never end on a word alone,
/// and are set smaller, to the minimum and no further, before they break badly.
@Suite struct TitleSetterTests {
    static let titles = [
        "The Great Adventure at Sunny Acres Farm",
        "Luna and the Festival of Lights",
        "Pip and the Lighthouse",
        "The Remarkable Journey of Pip the Fox over the Hills to the Sea",
        "Where the Wild Wind Blows Over the Quiet Meadow by the Old Stone Bridge",
        "הַרְפַּתְקָה גְּדוֹלָה בַּחַוָּה שֶׁל סַבְתָּא רוּת",
        "مغامرة كبيرة في مزرعة الجدة",
    ]
    static let widths: [Double] = [160, 230, 330, 470]
    static let display = TextStyle(family: "Andika", size: 40, weight: 700, lineHeight: 1.1)
    static let minSize = 24.0

    static func words(_ s: String) -> [Substring] { s.split(whereSeparator: \.isWhitespace) }

    func lineWords(_ layout: TextLayout) -> [[Substring]] { layout.lines.map { Self.words($0.text) }.filter { !$0.isEmpty } }

    @Test(arguments: titles, widths)
    func titleBreaksEvenlyWithNoWordAloneOrCut(_ title: String, _ width: Double) throws {
        let typesetter = try makeTypesetter(language: title.unicodeScalars.first!.value > 0x5FF ? "ar" : title.unicodeScalars.first!.value > 0x58F ? "he" : "en")
        let layout = TitleSetter(typesetter: typesetter).set(title, style: Self.display, minSize: Self.minSize, width: width)
        let lines = lineWords(layout)
        #expect(lines.flatMap { $0 } == Self.words(title), "every word whole, in order: \(lines)")
        #expect(layout.style.size >= Self.minSize - 0.001 && layout.style.size <= Self.display.size)
        #expect(layout.lines.allSatisfy { $0.width <= width + 0.5 }, "every line inside the column")
        if lines.count > 1 {
            if Self.words(title).count >= 3, lines.contains(where: { $0.count == 1 }) {
                // Only once the title is as small as it may be, and at the end only when the last
                // two words cannot share a line even then.
                #expect(layout.style.size == Self.minSize, "a word alone before the minimum size: \(lines)")
                if lines.last!.count == 1 {
                    let lastTwo = Self.words(title).suffix(2).joined(separator: " ")
                    #expect(typesetter.layout(lastTwo, style: layout.style, width: 0, alignment: .start, hyphenate: false).lines[0].width > width)
                }
            }
            let widths = layout.lines.map(\.width)
            let greedy = typesetter.layout(title, style: layout.style, width: width, alignment: .center, hyphenate: false)
            let greedyWidths = greedy.lines.map(\.width)
            if lines.allSatisfy({ $0.count >= 2 }) {
                #expect(widths.min()! >= 0.5 * widths.max()!, "lines of similar length: \(widths)")
            }
            // Against filling each line in turn, where that also keeps every word in company: with
            // the same words on the same number of lines, the smaller sum of squares is the more even.
            let greedyWords = greedy.lines.map { Self.words($0.text) }.filter { !$0.isEmpty }
            if greedyWords.count == lines.count, greedyWords.allSatisfy({ $0.count >= 2 }) {
                let squares = widths.reduce(0) { $0 + $1 * $1 }, greedySquares = greedyWidths.reduce(0) { $0 + $1 * $1 }
                #expect(squares <= greedySquares * 1.01, "at least as even as filling each line in turn: \(widths) vs \(greedyWidths)")
            }
        }
    }

    @Test func theFestivalOfLightsNoLongerLeavesLightsAlone() throws {
        let typesetter = try makeTypesetter()
        // The width where filling line by line gives "Luna and the Festival of / Lights".
        let title = "Luna and the Festival of Lights"
        var width = 200.0
        func firstFit(_ width: Double) -> TextLayout {
            typesetter.layout(title, style: Self.display, width: width, alignment: .start, hyphenate: false, lineBreaking: .firstFit)
        }
        var greedy = firstFit(width)
        while greedy.lines.count != 2 || Self.words(greedy.lines[1].text).count != 1 {
            width += 5
            greedy = firstFit(width)
            try #require(width < 2000)
        }
        let layout = TitleSetter(typesetter: typesetter).set(title, style: Self.display, minSize: Self.minSize, width: width)
        #expect(layout.style.size == Self.display.size, "no need to shrink: evening the lines is enough")
        #expect(lineWords(layout).map { $0.joined(separator: " ") } == ["Luna and the", "Festival of Lights"])
    }

    @Test func aTitleShrinksToTheMinimumRatherThanLeaveAWordAlone() throws {
        let typesetter = try makeTypesetter()
        // Three short words in a column too narrow for two of them at full size: at full size the
        // only layouts leave a word alone on a line, so the title is set smaller.
        let title = "The Quiet Pond"
        let full = typesetter.layout("The Quiet", style: Self.display, width: 0, alignment: .start, hyphenate: false).lines[0].width
        let layout = TitleSetter(typesetter: typesetter).set(title, style: Self.display, minSize: Self.minSize, width: full - 4)
        #expect(layout.style.size < Self.display.size && layout.style.size >= Self.minSize)
        #expect(lineWords(layout).allSatisfy { $0.count >= 2 } || lineWords(layout).count == 1, "\(lineWords(layout))")
    }

    @Test func oneWordStaysWholeAndShrinksNoFurtherThanTheMinimum() throws {
        let typesetter = try makeTypesetter()
        let setter = TitleSetter(typesetter: typesetter)
        let word = "Moonbeams"
        let natural = typesetter.layout(word, style: Self.display, width: 0, alignment: .start, hyphenate: false).lines[0].width
        let roomy = setter.set(word, style: Self.display, minSize: Self.minSize, width: natural + 10)
        #expect(roomy.lines.count == 1 && roomy.style.size == Self.display.size)
        let tight = setter.set(word, style: Self.display, minSize: Self.minSize, width: natural * 0.75)
        #expect(tight.lines.count == 1, "set smaller, not cut")
        #expect(tight.style.size < Self.display.size && tight.style.size >= Self.minSize)
    }

    @Test func aLongTitleKeepsToItsHeightBySettingSmaller() throws {
        let typesetter = try makeTypesetter()
        let title = "The Remarkable Journey of Pip the Fox over the Hills and Far Away to the Sea at the End of the World"
        let free = TitleSetter(typesetter: typesetter).set(title, style: Self.display, minSize: Self.minSize, width: 300)
        let limited = TitleSetter(typesetter: typesetter).set(title, style: Self.display, minSize: Self.minSize, width: 300, maxHeight: free.height * 0.7)
        #expect(limited.height <= free.height * 0.7)
        #expect(limited.style.size < free.style.size && limited.style.size >= Self.minSize)
        #expect(lineWords(limited).last!.count >= 2)
    }

    @Test func aTitleWithItsOwnLineBreaksKeepsThem() throws {
        let typesetter = try makeTypesetter()
        let layout = TitleSetter(typesetter: typesetter).set("Grandma's\nKitchen", style: Self.display, minSize: Self.minSize, width: 400)
        #expect(lineWords(layout) == [["Grandma's"], ["Kitchen"]])
    }

    /// Words of ordinary prose, drawn with a fixed seed: titles of any length, the same every run.
    static func prose(_ count: Int, seed: UInt64 = 7) -> String {
        let words = "the lamp keeper climbed one hundred and twelve stairs every evening while fishing boats waited below in the dark harbour for his light".split(separator: " ")
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return String(words[Int(state >> 33) % words.count])
        }.joined(separator: " ")
    }

    /// A title of hundreds of words (which a book may hold within its limits) takes work in
    /// proportion to its length: breaking it once tried every line count against every split.
    @Test func aLongTitleCostsWorkInProportionToItsLength() throws {
        let typesetter = try makeTypesetter()
        let setter = TitleSetter(typesetter: typesetter)
        var made: [Int] = []
        for count in [300, 600, 1200] {
            let before = typesetter.layoutsMade
            let layout = setter.set(Self.prose(count), style: Self.display, minSize: Self.minSize, width: 330)
            made.append(typesetter.layoutsMade - before)
            #expect(lineWords(layout).flatMap { $0 } == Self.words(Self.prose(count)), "every word whole, in order")
            #expect(layout.lines.allSatisfy { $0.width <= 330.5 }, "every line inside the column")
        }
        // Pango layouts, not words: a handful for each size tried, whatever the length.
        #expect(made.allSatisfy { $0 <= 3 * TitleSetter.sizes(from: Self.display.size, to: Self.minSize).count + 2 }, "\(made)")
        #expect(made[2] <= 2 * made[0] + 2, "\(made)")
    }

    /// The breaks are the fewest lines that break well and, among those, the most even, as trying
    /// every split of the words shows.
    @Test func theBreaksAreTheFewestLinesAndThenTheMostEven() throws {
        let typesetter = try makeTypesetter()
        let style = TextStyle(family: "Andika", size: 30, weight: 700, lineHeight: 1.1)
        for seed in UInt64(1)...24 {
            let title = Self.prose(3 + Int(seed % 7), seed: seed)
            let words = TitleSetter.wordRanges(title)
            for width in [140.0, 220.0, 320.0] {
                let spans = SpanWidths(title: title, words: words, style: style, width: width, typesetter: typesetter)
                let n = words.count
                var best: (lines: Int, cost: Double)?
                // Every split: a bit per gap between words.
                for mask in 0..<(1 << (n - 1)) {
                    var starts = [0]
                    for g in 0..<(n - 1) where mask & (1 << g) != 0 { starts.append(g + 1) }
                    let bounds = zip(starts, starts.dropFirst() + [n])
                    guard bounds.allSatisfy({ spans.allowed($0.0, $0.1, strict: true) }) else { continue }
                    let cost = bounds.reduce(0.0) { $0 + spans.width($1.0, $1.1) * spans.width($1.0, $1.1) }
                    if best == nil || starts.count < best!.lines || (starts.count == best!.lines && cost < best!.cost - 1e-6) {
                        best = (starts.count, cost)
                    }
                }
                let cuts = spans.fewestEvenest(strict: true)
                #expect((cuts == nil) == (best == nil), "\(title) at \(width)")
                if let cuts, let best {
                    let bounds = zip([0] + cuts, cuts + [n])
                    let cost = bounds.reduce(0.0) { $0 + spans.width($1.0, $1.1) * spans.width($1.0, $1.1) }
                    #expect(cuts.count + 1 == best.lines && abs(cost - best.cost) < 1e-6, "\(title) at \(width): \(cuts)")
                }
            }
        }
    }

    /// Titles in scripts written without spaces break only where ICU's dictionaries find a word
    /// boundary: every line starts and ends at one.
    @Test(arguments: [("ハリネズミのハリーとふしぎなもりのおともだち", "ja"), ("小刺猬哈利和神奇森林里的好朋友们", "zh"),
                      ("ハリネズミのハリー、うみへいく", "ja")], [120.0, 200.0, 300.0])
    func anUnspacedTitleBreaksOnlyBetweenWords(_ sample: (String, String), _ width: Double) throws {
        let (title, language) = sample
        let typesetter = try makeTypesetter(language: language)
        let style = TextStyle(family: "Noto Sans CJK JP", size: 40, weight: 700, lineHeight: 1.1)
        let layout = TitleSetter(typesetter: typesetter).set(title, style: style, minSize: 24, width: width)
        let lines = layout.lines.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(lines.joined() == title)
        let words = TitleSetter.dictionaryWordRanges(title, language: language)
        #expect(words.count > 2, "ICU finds the words")
        let boundaries = Set(words.map { title.utf8.distance(from: title.utf8.startIndex, to: $0.lowerBound) })
        var offset = 0
        for line in lines.dropLast() {
            offset += line.utf8.count
            #expect(boundaries.contains(offset), "\(lines) breaks inside a word at byte \(offset)")
        }
        #expect(lines.count > 1 || width >= 300)
    }
}
