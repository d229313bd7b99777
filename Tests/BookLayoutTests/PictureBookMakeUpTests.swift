import Testing
import Foundation
import BookLayout
import BookTestSupport
import BookRenderKit

/// A 40-page square picture book the repository has no sample of (day and night scenes, three
/// spreads, two chapters, texts from a line to a long paragraph), laid out once and read as a
/// book designer would: one body size, no wasted page, bands that keep one line across a spread,
/// no centred paragraph ending on a lone word.
@Suite struct PictureBookMakeUpTests {
    static let short = ["Pip woke before the sun.", "The wind said hush.", "Up the hill went Pip.",
                        "Stars came out, one by one.", "The owl blinked twice.", "Home was far away.",
                        "Pip was not afraid. Well, only a little."]
    static let medium = "Grandpa Otto had told him once that every light in the dark is somebody waiting for somebody, and Pip liked that very much."
    static let long = "That night the whole valley was so quiet that Pip could hear the river talking to the stones, and the stones answering back in their slow and patient way. He walked along the bank, counting the frogs that plopped into the water ahead of him, and he wondered whether the lighthouse keeper was counting them too, from his high window above the bay, where the lamp turned and turned all night."

    /// The book's folder: 40 story entries over eight pictures.
    static func book() throws -> URL {
        let folder = try temporaryDirectory("picture-book-40")
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for i in 0..<6 {
            let figure = SceneFigure(x: Double(200 + i * 90), foot: Double(700 + (i % 3) * 60), height: Double(110 + i * 12))
            let data = i % 2 == 0
                ? try NightScenes.night(width: 900, height: 900, figure: figure, tree: i == 2 ? 0.15 : nil)
                : try TestImages.convert(["-size", "900x900", "gradient:#9FD3F0-#E4F4FB", "-draw",
                                          "fill #6DB56D rectangle 0,610 900,900 fill #FFD54A circle 180,140 240,140 " + figure.mvg])
            try data.write(to: images.appendingPathComponent("scene\(i).png"))
        }
        for i in 0..<2 {
            let figure = SceneFigure(x: Double(500 + i * 600), foot: 760, height: 130)
            try NightScenes.night(width: 1800, height: 900, figure: figure, moon: (1300, 160))
                .write(to: images.appendingPathComponent("wide\(i).png"))
        }
        var pages: [[String: Any]] = []
        var n = 0
        func illustration(_ text: String) {
            pages.append(["type": "illustration", "image": "images/scene\(n % 6).png", "text": text])
            n += 1
        }
        for i in 0..<40 {
            switch i {
            case 9, 23, 33:
                pages.append(["type": "spread", "image": "images/wide\(i % 2).png",
                              "leftText": short[i % short.count], "rightText": i == 23 ? medium : short[(i + 1) % short.count]])
            case 14:
                pages.append(["type": "chapter", "title": "Night"])
            case 28:
                pages.append(["type": "chapter", "title": "The Lighthouse"])
            default:
                illustration(i % 5 == 3 ? long : i % 3 == 1 ? medium : short[i % short.count])
            }
        }
        let book: [String: Any] = ["schema": 1, "kind": "storybook", "language": "en", "title": "Pip and the Lighthouse",
                                   "author": "June Harrow", "theme": "picture-book",
                                   "format": ["trim": ["width": "8.5in", "height": "8.5in"]], "pages": pages]
        try JSONSerialization.data(withJSONObject: book, options: [.sortedKeys]).write(to: folder.appendingPathComponent("book.json"))
        return folder
    }

    /// Laid out once, then read four ways.
    @Test func aFortyPagePictureBookIsMadeUpAsADesignerWould() throws {
        let folder = try Self.book()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = try TestBooks.open(folder.appendingPathComponent("book.json")).layout()
        let story = Self.storyPages(tree)
        #expect(story.count >= 40)
        try everyWordOfTheStoryIsSetAtOneSizeNoSmallerThanTheThemeAllows(story)
        noBlankOrTitleOnlyPageBetweenTheFirstAndLastStoryPage(story)
        textOnFacingPicturePagesStandsOnGroundsOfOneHeight(story)
        noCentredParagraphEndsOnALoneWord(story)
    }

    /// The pages from the first page of the story to its last.
    static func storyPages(_ tree: PageTree) -> [PageNode] {
        let pages = tree.pages
        let story: Set<PageRole> = [.illustration, .text, .chapter, .spreadLeft, .spreadRight]
        guard let first = pages.firstIndex(where: { story.contains($0.role) }),
              let last = pages.lastIndex(where: { story.contains($0.role) }) else { return [] }
        return Array(pages[first...last])
    }

    static func bodyBoxes(_ page: PageNode) -> [TextBox] {
        page.textBoxes.filter { $0.structure == .paragraph && $0.isBookText }
    }

    func everyWordOfTheStoryIsSetAtOneSizeNoSmallerThanTheThemeAllows(_ story: [PageNode]) throws {
        let theme = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.root.appendingPathComponent("templates/picture-book.json"))) as? [String: Any]
        let tokens = theme?["tokens"] as? [String: Any]
        let measure = (tokens?["typography"] as? [String: Any])?["measure"] as? [String: Any]
        let minimum = try #require(measure?["minBodySize"] as? Double)
        var sizes: [Double: [Int]] = [:]
        for page in story {
            for box in Self.bodyBoxes(page) { sizes[box.layout.style.size, default: []].append(page.number) }
        }
        #expect(sizes.count == 1, "body sizes and their pages: \(sizes.mapValues { Set($0).sorted() })")
        for size in sizes.keys { #expect(size >= minimum, "body set at \(size) pt, below the theme's \(minimum) pt") }
        // Every word of the story is there: none dropped to make a page fit.
        let words = story.flatMap { Self.bodyBoxes($0).map(\.text) }.joined(separator: " ")
        #expect(words.contains("where the lamp turned and turned all") || words.contains("turned and turned"))
    }

    func noBlankOrTitleOnlyPageBetweenTheFirstAndLastStoryPage(_ story: [PageNode]) {
        for page in story {
            #expect(page.role != .blank, "page \(page.number) is blank: \(page.blankReason ?? "")")
            let words = page.textBoxes.filter(\.isBookText)
            let titleOnly = page.images.isEmpty && !words.isEmpty && words.allSatisfy { $0.structure != .paragraph }
            #expect(!titleOnly, "page \(page.number) holds only \(words.map(\.text))")
            #expect(!page.items.isEmpty, "page \(page.number) is empty")
        }
    }

    /// A band or veil under the words: a fill that is not the page's paper.
    static func textGround(_ page: PageNode) -> Rect? {
        let boxes = bodyBoxes(page)
        guard !boxes.isEmpty else { return nil }
        return page.items.compactMap { item -> Rect? in
            guard case .fill(let f) = item, f.rect.height < 0.9 * (page.images.first?.clip.height ?? .infinity) else { return nil }
            let overlaps = boxes.contains { b in
                f.rect.x < b.frame.x + b.frame.width && b.frame.x < f.rect.x + f.rect.width
                    && f.rect.y < b.frame.y + b.frame.height && b.frame.y < f.rect.y + f.rect.height
            }
            return overlaps ? f.rect : nil
        }.max { $0.height < $1.height }
    }

    func textOnFacingPicturePagesStandsOnGroundsOfOneHeight(_ story: [PageNode]) {
        for (left, right) in zip(story, story.dropFirst()) where left.side == .left && right.number == left.number + 1 {
            guard left.role == .illustration, right.role == .illustration,
                  let a = Self.textGround(left), let b = Self.textGround(right) else { continue }
            #expect(abs(a.height - b.height) < 1, "pages \(left.number)–\(right.number): grounds \(a.height) and \(b.height) pt high")
        }
    }

    func noCentredParagraphEndsOnALoneWord(_ story: [PageNode]) {
        var blocks = 0
        for page in story {
            for box in page.textBoxes where box.layout.alignment == .center && box.isBookText {
                let lines = Array(box.layout.lines[box.lines])
                for (i, line) in lines.enumerated() where i > 0 {
                    let endsParagraph = i == lines.count - 1 || lines[i + 1].paragraph != line.paragraph
                    guard endsParagraph, lines[i - 1].paragraph == line.paragraph else { continue }
                    blocks += 1
                    let words = line.text.split(whereSeparator: \.isWhitespace)
                    #expect(words.count >= 2, "page \(page.number): “\(line.text)” ends “\(lines[i - 1].text)…”")
                }
            }
        }
        #expect(blocks >= 10, "only \(blocks) centred paragraphs of more than one line")
    }
}
