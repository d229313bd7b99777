import Testing
import Foundation
import BookLayout
import BookTestSupport
import BookRenderKit

/// The body's measure as a reader meets it: characters a full line, read back from the PDF.
@Suite struct BodyMeasureTests {
    /// Each line of the page's text as poppler finds it: its width in points and its characters.
    static func lines(_ pdf: URL, page: Int) throws -> [(width: Double, text: String)] {
        let xml = try run("pdftotext", ["-bbox-layout", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"]).stdout
        let line = try NSRegularExpression(pattern: #"<line xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>(.*?)</line>"#,
                                           options: [.dotMatchesLineSeparators])
        let word = try NSRegularExpression(pattern: #"<word[^>]*>(.*?)</word>"#)
        let ns = xml as NSString
        return line.matches(in: xml, range: NSRange(location: 0, length: ns.length)).map { m in
            let body = ns.substring(with: m.range(at: 3)) as NSString
            let words = word.matches(in: body as String, range: NSRange(location: 0, length: body.length))
                .map { body.substring(with: $0.range(at: 1)) }
                .map { $0.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                         .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                         .replacingOccurrences(of: "&amp;", with: "&") }
            return (Double(ns.substring(with: m.range(at: 2)))! - Double(ns.substring(with: m.range(at: 1)))!,
                    words.joined(separator: " "))
        }
    }

    /// Median characters of the full lines (as wide as the page's widest, within 3 %) of the text pages.
    static func medianFullLine(_ pdf: URL, textPages: [Int]) throws -> (median: Int, lines: Int) {
        var counts: [Int] = []
        for page in textPages {
            let lines = try lines(pdf, page: page)
            guard let widest = lines.map(\.width).max() else { continue }
            counts += lines.filter { $0.width >= 0.97 * widest && $0.text.count > 20 }.map(\.text.count)
        }
        counts.sort()
        return (counts.isEmpty ? 0 : counts[counts.count / 2], counts.count)
    }

    @Test func theMemoirAIBodyHoldsFortyFiveToSeventyFiveCharactersALine() throws {
        let book = Repository.samples.appendingPathComponent("apps/memoirai/storybook.json")
        let dir = try temporaryDirectory("measure")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("memoirai.pdf")
        let report = try TestBooks.open(book).export(ExportOptions(pdf: pdf))
        let textPages = report.pages.filter { $0.role == "text" }.map(\.number)
        #expect(!textPages.isEmpty)
        let (median, count) = try Self.medianFullLine(pdf, textPages: textPages)
        print("MemoirAI sample: median \(median) characters over \(count) full body lines")
        #expect(count >= 5)
        #expect((45...75).contains(median), "median \(median) characters a line")
        // The layout's own estimate agrees with what the PDF shows.
        let estimate = try #require(try TestBooks.open(book).describe().bodyCharactersPerLine)
        #expect(abs(estimate - median) <= 8, "estimated \(estimate), measured \(median)")
    }

    @Test func aBookWithItsOwnMarginsKeepsThemAndItsMeasure() throws {
        // The sample memoir gives its margins: the body is set at the theme's size between them.
        let book = Repository.samples.appendingPathComponent("memoir/book.json")
        let document = try TestBooks.open(book)
        let tree = try document.layout()
        let body = try #require(tree.pages.first { $0.role == .text }?.textBoxes.first { $0.layout.lines.count > 10 })
        #expect(body.layout.style.size == 12)
        #expect(abs(body.frame.width - (tree.trim.width - 0.875 * 72 - 0.625 * 72)) < 0.01)
    }
}
