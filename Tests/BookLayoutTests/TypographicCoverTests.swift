import Testing
import Foundation
import BookModel
import BookConfig
import BookLayout
import BookTestSupport
import BookRenderKit

/// A book with no cover picture gets a cover made of its words, never a placeholder; a cover
/// picture the book names but that is missing is a placeholder, reported with page 1.
@Suite struct TypographicCoverTests {
    static let themes = Theme.available(in: Repository.resources.templates)

    func textOnly(_ theme: String) -> Book {
        let kind = (try? Theme.load(named: theme, from: Repository.resources.templates).kind) ?? nil
        var book = Book(kind: kind ?? .storybook, title: "Luna and the Festival of Lights",
                        subtitle: "A bedtime story", author: "Mara Lind", theme: theme,
                        pages: [Page(TextPage(text: "Once, in a town of lanterns, there lived a girl called Luna."))])
        book.characters = Characters(main: MainCharacter(name: "Luna"))
        return book
    }

    /// A box's words with its line breaks (a title's are line separators) as plain spaces.
    static func flat(_ box: TextBox) -> String { box.text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ") }

    static func hasPlaceholderArt(_ page: PageNode) -> Bool {
        page.items.contains { if case .placeholderArt = $0 { return true } else { return false } }
    }

    @Test(arguments: themes)
    func aBookWithNoCoverPictureGetsATypographicCoverAndNoPlaceholder(_ theme: String) throws {
        let tree = try TestBooks.document(textOnly(theme)).layout()
        let cover = tree.pages[0]
        #expect(!Self.hasPlaceholderArt(cover))
        #expect(!tree.findings.contains { $0.kind == .placeholder || $0.kind == .missingImage })
        let texts = cover.textBoxes.map(Self.flat)
        #expect(texts.contains("Luna and the Festival of Lights") && texts.contains("A bedtime story"), "\(texts)")
        #expect(texts.contains { $0.uppercased() == "MARA LIND" }, "\(texts)")

        // Every word inside the margins (a full-bleed jacket's, for a theme whose cover is one),
        // the title the largest type and the first thing read.
        let resolved = try TestBooks.document(textOnly(theme)).resolve()
        let margins = resolved.tokens.templates.cover.style == "full-bleed" ? resolved.margins.jacket(respecting: nil) : resolved.margins
        let area = Rect(x: margins.inner, y: margins.top, width: tree.trim.width - margins.inner - margins.outer,
                        height: tree.trim.height - margins.top - margins.bottom)
        for box in cover.textBoxes {
            let ink = box.inkBounds
            #expect(ink.x >= area.x - 0.5 && ink.maxX <= area.maxX + 0.5 && ink.y >= area.y - 0.5 && ink.maxY <= area.maxY + 0.5,
                    "\"\(box.text)\" inside the margins")
        }
        let title = try #require(cover.textBoxes.first { Self.flat($0) == "Luna and the Festival of Lights" })
        let others = cover.textBoxes.filter { $0.text.count > 1 && $0.layout !== title.layout }
        #expect(others.allSatisfy { $0.layout.style.size < title.layout.style.size })
        #expect(others.filter { $0.text.contains("MARA") || $0.text.contains("Mara") }.allSatisfy { $0.frame.y > title.frame.maxY },
                "the author's name below the title")

        // The accent is on the cover, and the title is set in the theme's title family.
        let accent = try TestBooks.document(textOnly(theme)).resolve().tokens.palette.accent
        #expect(cover.items.contains { item in
            switch item {
            case .fill(let f): return f.color == accent
            case .rule(let r): return r.color == accent
            default: return false
            }
        })
        let typo = try TestBooks.document(textOnly(theme)).resolve().tokens.typography
        #expect(title.layout.style.family == typo.title.family)
        #expect(title.layout.style.size >= (typo.title.minSize ?? typo.title.size))
    }

    /// Type and rules, no medallion: the hero is named over the title when the title does not
    /// say the name, in spaced capitals, and no round shape stands on the cover.
    @Test(arguments: themes)
    func theHeroIsNamedOverATitleThatDoesNotSayItAndNoMedallionIsDrawn(_ theme: String) throws {
        var book = textOnly(theme)
        book.title = "The Festival of Lights"
        let cover = try TestBooks.document(book).layout().pages[0]
        let words = cover.textBoxes.map(Self.flat)
        #expect(words.contains("LUNA"), "\(words)")
        #expect(!words.contains("L"), "the hero's initial alone: \(words)")
        #expect(!cover.items.contains { if case .fill(let f) = $0 { return f.cornerRadius > 0 } else { return false } })
        let named = try TestBooks.document(textOnly(theme)).layout().pages[0].textBoxes.map(Self.flat)
        #expect(!named.contains("LUNA"), "the title says the name already: \(named)")
    }

    @Test(arguments: themes)
    func aMissingCoverPictureIsAPlaceholderOnPageOne(_ theme: String) throws {
        var book = textOnly(theme)
        book.cover = Cover(photo: .path("images/not-there.jpg"))
        let tree = try TestBooks.document(book, folder: try temporaryDirectory("missing-cover")).layout()
        #expect(Self.hasPlaceholderArt(tree.pages[0]))
        let reported = tree.findings.filter { $0.kind == .placeholder || $0.kind == .missingImage }
        #expect(reported.map(\.physicalPages) == [[1]])
        #expect(reported.first?.message.contains("not-there.jpg") == true)
        #expect { try TestBooks.document(book, folder: try temporaryDirectory("missing-cover-strict"), strict: true).resolve() } throws: { error in
            (error as? BookRenderError)?.kind == .invalidBook && (error as? BookRenderError)?.message.contains("not-there.jpg") == true
        }
    }
}
