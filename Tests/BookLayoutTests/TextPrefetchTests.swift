import Foundation
import Testing
import BookModel
import BookResolve
@testable import BookLayout
import BookTestSupport
import BookRenderKit

/// Long texts are laid out on several threads, each with its own Typesetter. The result must be
/// the layout one thread would make: the same lines, so the same pages and the same PDF.
@Suite struct TextPrefetchTests {
    /// Justified, hyphenated prose in three faces (each face has metrics of its own to compute).
    static let requests: [TextRequest] = (0..<12).map { i in
        let style = TextStyle(family: "Linux Libertine O", size: 10.5 + Double(i % 3), weight: i % 3 == 1 ? 700 : 400,
                              italic: i % 3 == 2, lineHeight: 1.35, letterSpacing: 0, firstLineIndent: 12)
        return TextRequest(text: sampleProse(paragraphs: 14, seed: UInt64(i + 1)), style: style, width: 250 + Double(i % 4) * 20,
                           alignment: .justify, hyphenate: true)
    }

    static func lines(_ layout: TextLayout) -> [String] { layout.lines.map(\.text) }

    /// Fresh typesetters on four threads at once, against one typesetter alone. Each round starts
    /// fresh font maps, whose font metrics are computed while the other threads compute theirs:
    /// the moment Pango 1.50's shared recursion flag used to spoil a font's character width.
    @Test func typesettersOnConcurrentThreadsBreakLinesAsOneAlone() throws {
        let reference = try TestFonts.typesetter()
        let expected = Self.requests.map { Self.lines(reference.makeLayout($0)) }
        let fonts = reference.fonts
        for round in 0..<10 {
            let results = Results(count: Self.requests.count)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                let typesetter = Typesetter(fonts: fonts, language: "en-US")
                for i in stride(from: worker, to: Self.requests.count, by: 4) {
                    results.set(i, Self.lines(typesetter.makeLayout(Self.requests[i])))
                }
            }
            for i in Self.requests.indices {
                let got = results.get(i)
                let firstDifference = zip(got, expected[i]).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected[i].count)
                #expect(got == expected[i], "round \(round), text \(i): line \(firstDifference) differs from a single thread's")
            }
        }
    }

    /// A 6 × 9 in memoir of `chapters` chapters of 30 paragraphs each, resolved.
    static func memoir(chapters: Int) throws -> ResolvedBook {
        let pages = (1...chapters).map { n in
            Page(ChapterPage(title: "Chapter \(n)", text: sampleProse(paragraphs: 30, seed: UInt64(n))))
        }
        // No contents page: its numbers would hold every page back until the last chapter is set.
        return try TestBooks.document(Book(kind: .memoir, title: "Prefetch", language: "en-US", theme: "memoir",
                                             format: BookFormat(trim: .preset("6x9")), matter: BookMatter(contents: false),
                                             pages: pages)).resolve()
    }

    @Test func aBookLaidOutWithHelpersHasTheSamePagesAsWithout() throws {
        let resolved = try Self.memoir(chapters: 8)
        let requests = TextPrefetch.requests(resolved, typesetter: try TestFonts.typesetter())
        #expect(requests.count == 8, "every chapter's text is long enough to lay out ahead")
        func pages(threads: Int) throws -> [[String]] {
            let tree = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: threads).layout(resolved)
            return tree.pages.map { page in page.items.flatMap { item -> [String] in
                guard case .text(let box) = item else { return [] }
                return box.lines.map { box.layout.lines[$0].text }
            } }
        }
        let alone = try pages(threads: 1)
        #expect(alone.count > 40)
        for threads in [2, 3] {
            let same = try pages(threads: threads) == alone
            #expect(same, "\(threads) threads")
        }
    }

    /// How `export` lays out for a PDF: each page drawn as it comes, then its text let go. The
    /// helper's layouts arrive as glyph runs without their Pango objects, the pages are the same
    /// as one thread's, and no layout outlives the pages it was drawn on.
    @Test func textHandedOverForDrawingIsGlyphsOnlyAndLetGo() throws {
        let resolved = try Self.memoir(chapters: 6)
        final class Seen { weak var layout: TextLayout? }
        func handOver(threads: Int) throws -> (pages: [[String]], seen: Int, freed: Bool, withoutPango: Int) {
            var layouter = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: threads)
            layouter.keepsHandedOverText = false
            var pages: [[String]] = [], seen: [Seen] = [], withoutPango = 0
            _ = layouter.layout(resolved) { page in
                var lines: [String] = []
                for case .text(let box) in page.items {
                    lines += box.lines.map { box.layout.lines[$0].text }
                    if !seen.contains(where: { $0.layout === box.layout }) {
                        let s = Seen()
                        s.layout = box.layout
                        seen.append(s)
                        if box.layout.blocks.isEmpty {
                            withoutPango += 1
                            #expect(box.layout.glyphLinesIfMade != nil, "a layout without Pango is drawn from its glyph runs")
                        }
                    }
                }
                pages.append(lines)
            }
            // While the layouter, its typesetter and the texts it laid out ahead are still alive.
            let freed = withExtendedLifetime(layouter) { seen.allSatisfy { $0.layout == nil } }
            return (pages, seen.count, freed, withoutPango)
        }
        let alone = try handOver(threads: 1)
        let helped = try handOver(threads: 2)
        #expect(helped.pages == alone.pages)
        #expect(alone.withoutPango == 0)
        #expect(helped.withoutPango > 0, "the helper's layouts come without Pango objects")
        #expect(helped.seen >= 6)
        #expect(helped.freed, "every layout is freed once its pages are drawn")
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [[String]]
        init(count: Int) { values = Array(repeating: [], count: count) }
        func set(_ i: Int, _ v: [String]) { lock.withLock { values[i] = v } }
        func get(_ i: Int) -> [String] { lock.withLock { values[i] } }
    }
}

/// A picture book's words are laid out ahead too: each page sets them at every measure it tries
/// for them, over the art and beside it, and those are the texts the helpers make.
@Suite struct PictureWordsAheadTests {
    @Test func everyPicturePageGetsItsWordsFromTheHelpers() throws {
        let document = try TestBooks.open(Repository.samples.appendingPathComponent("storybook/book.json"))
        var book = document.book
        // Many picture pages with words, each its own: as a long picture book has.
        let pictures = book.pages.filter { if case .illustration(let p) = $0.content { p.image != nil } else { false } }
        try #require(!pictures.isEmpty)
        book.pages = (0..<24).map { i in
            guard case .illustration(var page) = pictures[i % pictures.count].content else { fatalError() }
            page.caption = nil
            page.text = sampleProse(paragraphs: 1, seed: UInt64(i + 1)).split(separator: ".").prefix(2).joined(separator: ".") + "."
            return Page(page)
        }
        var copy = document
        copy.book = book
        let resolved = try copy.resolve()
        let requests = TextPrefetch.requests(resolved, typesetter: try TestFonts.typesetter())
        #expect(requests.count >= 24, "each page's words at least at one measure")

        func layOut(threads: Int) throws -> (pages: [[String]], handedOut: Int) {
            let typesetter = try TestFonts.typesetter()
            let tree = BookLayouter(typesetter: typesetter, textThreads: threads).layout(resolved)
            let pages = tree.pages.map { page in page.items.flatMap { item -> [String] in
                guard case .text(let box) = item else { return [] }
                return box.lines.map { box.layout.lines[$0].text }
            } }
            return (pages, typesetter.prepared?.handedOutCount ?? 0)
        }
        let alone = try layOut(threads: 1), helped = try layOut(threads: 2)
        #expect(helped.pages == alone.pages, "the same lines on the same pages")
        #expect(alone.handedOut == 0)
        // Every text the queue held was asked for by the page pass, as it was laid out ahead.
        #expect(helped.handedOut >= requests.count, "\(helped.handedOut) of \(requests.count) texts laid out ahead were used")
    }
}
