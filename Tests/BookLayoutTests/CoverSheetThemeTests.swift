import Testing
import Foundation
import BookModel
import BookConfig
@testable import BookLayout
import BookTestSupport
import BookRenderKit

/// The printed cover sheet in every theme for every printer: the sheet passes the printer's checks,
/// the spine continues the back so the sheet reads as one object, its words read on it, the front's
/// picture stops at its fold, and nothing of the front's decoration stands beside a fold.
@Suite struct CoverSheetThemeTests {
    static let themes = Theme.available(in: Repository.resources.templates)

    static let printers = ["kdp", "lulu", "ingramspark"]

    @Test(arguments: themes, printers)
    func theSpineContinuesTheBackAndNoDecorationStandsByAFold(_ theme: String, _ printer: String) throws {
        let kind = try Theme.load(named: theme, from: Repository.resources.templates).kind ?? .storybook
        let dir = try temporaryDirectory("sheet-\(theme)-\(printer)")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A picture with 300 ppi over the front and its bleed at 6 x 9 in.
        try TestImages.gradientJPEG(width: 1900, height: 2800).write(to: dir.appendingPathComponent("front.jpg"))
        for photo in [true, false] {
            let book = Book(kind: kind, title: "Salt and Lanterns", subtitle: "A harbour year", author: "Ada Whitlow", language: "en",
                            theme: theme, format: BookFormat(trim: .preset("6x9")),
                            cover: Cover(photo: photo ? .path("front.jpg") : nil, blurb: "A year of tides, told by the girl who kept the lamp."),
                            matter: BookMatter(publisher: "Porter Street Press"),
                            pages: [Page(TextPage(text: "The tide came in."))])
            let document = TestBooks.document(book, folder: dir, profile: printer)
            let resolved = try document.resolve()
            // 400 pages: a spine wide enough for its words.
            let (tree, info) = try CoverSpread.layout(resolved, interiorPages: 400, paper: "white", typesetter: try TestFonts.typesetter())
            let at = "\(theme) for \(printer), \(photo ? "cover photo" : "no cover photo")"
            // The sheet as `cover` lays it out passes the printer's checks (the one-page interior's
            // page count is the interior's matter, a warning here).
            let report = try document.preflightCover(profile: printer)
            let refused = report.findings.filter { $0.severity == .error }
            #expect(refused.isEmpty, "\(at): \(refused.map(\.message))")
            let page = try #require(tree.pages.first)
            let w = resolved.trim.width, spine = info.spineInches * 72
            guard case .fill(let back)? = page.items.first else { Issue.record("\(at): the sheet starts with the back's colour"); continue }
            let spineFills = page.items.compactMap { item -> Fill? in
                guard case .fill(let f) = item, f.rect.x < w + 1, f.rect.maxX > w + spine - 1, f.rect.width < spine + 20 else { return nil }
                return f
            }
            let spineFill = try #require(spineFills.last, "\(at): no spine")
            #expect(spineFill.color == back.color, "\(at): spine \(spineFill.color) on a back of \(back.color)")
            let words = try #require(page.textBoxes.first { $0.turnedClockwise }, "\(at): no spine text on 400 pages")
            #expect(words.text.contains("Salt and Lanterns"))
            let contrast = TextContrast.ratio(words.color, spineFill.color)
            #expect(contrast >= 4.5, "\(at): spine text contrast \(contrast)")

            // The front's picture stops at the front's fold: its bleed on that side would show
            // as a sliver on the back of a thin spine.
            for image in page.images where image.frame.x + image.frame.width / 2 > w + spine {
                #expect(image.clip.x >= w + spine - 0.01, "\(at): \(image.asset.origin) reaches \(w + spine - image.clip.x) pt past the front's fold")
            }
            // Within 0.25 in of either fold, only the panels' grounds, the spine, the picture and
            // the spine's words: no rule, side band or card of the front's.
            let folds = [w, w + spine], near = 0.25 * 72
            for item in page.items {
                let rect: Rect
                switch item {
                case .fill(let f): rect = f.rect
                case .rule(let r): rect = Rect(x: min(r.from.x, r.to.x), y: min(r.from.y, r.to.y), width: abs(r.to.x - r.from.x), height: abs(r.to.y - r.from.y))
                default: continue
                }
                // A panel's own ground (its paper, a band across its whole width) meets the fold as
                // the paper does; what is narrower is decoration.
                if case .fill(let f) = item, f.color == back.color || f.color == spineFill.color || f.rect.width >= 0.9 * w { continue }
                for fold in folds {
                    #expect(rect.maxX < fold - near || rect.x > fold + near, "\(at): \(item) within 0.25 in of the fold at \(fold)")
                }
            }
        }
    }
}
