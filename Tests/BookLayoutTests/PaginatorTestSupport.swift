import Testing
@testable import BookLayout

/// SplitMix64: a fixed seed gives the same cases on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Tiled lines for paragraphs of the given lengths; `height(i)` is line i's height.
func makeLines(_ paragraphs: [Int], height: (Int) -> Double = { _ in 12 }) -> [TextLine] {
    var lines: [TextLine] = []
    var top = 0.0
    for (p, count) in paragraphs.enumerated() {
        for i in 0..<count {
            let h = height(lines.count)
            lines.append(TextLine(byteRange: lines.count..<(lines.count + 1), text: "p\(p)l\(i)", top: top, baseline: top + h * 0.8,
                                  height: h, width: 100, x: 0, paragraph: p, indexInParagraph: i,
                                  paragraphLineCount: count, endsWithSoftHyphen: false))
            top += h
        }
    }
    return lines
}

/// Every line on exactly one page, in order, and nothing below a page's bottom.
func expectWellFormed(_ pages: [Range<Int>], _ lines: [TextLine], _ heights: (Int) -> Double,
                              sourceLocation: SourceLocation = #_sourceLocation) {
    var next = 0
    for (i, page) in pages.enumerated() {
        #expect(page.lowerBound == next && !page.isEmpty, "page \(i) is \(page)", sourceLocation: sourceLocation)
        next = page.upperBound
        let origin = lines[page.lowerBound].top
        if page.count > 1 {
            for line in lines[page] {
                #expect(line.bottom - origin <= heights(i) + 1e-6, "page \(i): \(line.text)", sourceLocation: sourceLocation)
            }
        }
    }
    #expect(next == lines.count, sourceLocation: sourceLocation)
}

/// Breaks that leave fewer than `minimum` lines of a paragraph on either side.
func badBreaks(_ pages: [Range<Int>], _ lines: [TextLine], minimum: Int) -> [Int] {
    var bad: [Int] = []
    for (i, page) in pages.enumerated().dropLast() {
        let last = lines[page.upperBound - 1], next = lines[page.upperBound]
        guard last.paragraph == next.paragraph else { continue }
        let onPage = lines[page].filter { $0.paragraph == last.paragraph }.count
        let after = next.paragraphLineCount - next.indexInParagraph
        if onPage < minimum || after < minimum { bad.append(i) }
    }
    return bad
}
