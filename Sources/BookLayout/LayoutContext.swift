import Foundation
import BookConfig
import BookResolve

/// State shared by the page templates while one book is laid out: the pages made so far,
/// the findings, and the geometry every template measures against.
final class LayoutContext {
    let book: ResolvedBook
    let typesetter: Typesetter
    var pages: [PageNode] = []
    var findings: [Finding]
    /// Chapter openers so far, for the PDF outline: (title, physical page number).
    var chapters: [(title: String, page: Int)] = []
    /// The contents pages kept for `Contents.fill`, by index in `pages`.
    var contentsPages: [Int] = []
    /// Spread crops already searched, for a picture on many spreads.
    var spreadCrops: [SpreadCropKey: SpreadCrop.Outcome] = [:]

    var tokens: DesignTokens { book.tokens }
    var palette: Palette { book.tokens.palette }
    var width: Double { book.trim.width }
    var height: Double { book.trim.height }
    var nextNumber: Int { pages.count + 1 }

    init(book: ResolvedBook, typesetter: Typesetter) {
        self.book = book
        self.typesetter = typesetter
        self.findings = book.findings
    }

    var pageRect: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Bleed and marks for print; `.none` for plain output, where the bleed rect is the page.
    var geometry: PrintGeometry {
        var g = PrintGeometry(book.profile)
        g.bindsOnRight = book.bindsOnRight
        return g
    }

    /// What a full-bleed picture or background must cover: the page plus its bleed.
    func bleedRect(for number: Int) -> Rect { geometry.bleedRect(page: number, trim: book.trim) }

    /// The margins a full-bleed cover's words keep (see `ResolvedMargins.jacket`).
    var jacketMargins: ResolvedMargins { book.margins.jacket(respecting: book.profile) }

    /// How much wider than the book's margins the interior's side margins are, so the body's
    /// lines hold the theme's measure (see `MeasureFit`).
    var measureInset = (inner: 0.0, outer: 0.0)

    /// The text area of a page: the inner margin is on the binding side (left on right-hand pages;
    /// right on an odd page of a book bound on the right).
    func contentRect(for number: Int) -> Rect {
        let m = book.margins
        let inner = m.inner + measureInset.inner, outer = m.outer + measureInset.outer
        let left = (number % 2 == 1) != book.bindsOnRight ? inner : outer
        return Rect(x: left, y: m.top, width: width - inner - outer, height: height - m.top - m.bottom)
    }

    /// Appends a page with the page colour laid down first, and returns its index in `pages`. For
    /// a printer the page colour is the paper's (cream or white stock): not printed, unless the
    /// book asks for it (`format.printBackground`).
    @discardableResult
    func addPage(_ role: PageRole, source: Int?, items: [PageItem] = []) -> Int {
        var page = PageNode(number: nextNumber, role: role, sourcePage: source, items: items, bindsOnRight: book.bindsOnRight)
        if book.leavesPageColourToPaper {
            page.paper = palette.background
        } else {
            page.items.insert(.fill(Fill(rect: bleedRect(for: nextNumber), color: palette.background)), at: 0)
        }
        pages.append(page)
        return pages.count - 1
    }

    func append(_ item: PageItem, to index: Int) {
        if case .text(let box) = item { noteWordsPastTheEdge(box, on: index) }
        pages[index].items.append(item)
    }

    /// Pages already told they lose words past their bottom edge, so each is named once.
    private var pagesLosingWords: Set<Int> = []

    /// Words set so low that whole lines start below the page (a title of hundreds of words on a
    /// chapter page or a cover) are not printed; the user hears which page and entry lost them
    /// instead of finding a title cut off in print.
    private func noteWordsPastTheEdge(_ box: TextBox, on index: Int) {
        guard box.frame.y + box.frame.height > height, !box.turnedClockwise, box.isBookText,
              !pagesLosingWords.contains(index) else { return }
        let lost = box.lines.filter { box.frame.y + box.layout.lines[$0].top - box.layoutTop >= height }
        guard let first = lost.first else { return }
        pagesLosingWords.insert(index)
        let page = pages[index]
        let entry = page.role == .cover ? "$.cover" : page.sourcePage.map { "$.pages[\($0)]" } ?? "the page's text"
        let shown = first - box.lines.lowerBound
        findings.append(Finding(.warning, .other, sourcePage: page.sourcePage, physicalPages: [page.number],
                                "\(entry): words run past the bottom of the page: \(lost.count) of \(box.lines.count) lines, "
                                + "from \"\(box.layout.lines[first].text.prefix(40))…\", are not printed (\(shown) are); shorten them"))
    }

    /// Pads with a blank page so the next page lands on `side`, and says so in the report and on the
    /// blank page itself; `why` finishes "blank page inserted …".
    func startOn(_ side: PageSide, source: Int?, why: String) {
        let nextSide: PageSide = nextNumber % 2 == 1 ? .right : .left
        guard nextSide != side else { return }
        if let source, plan.designedPages.contains(source) {
            DesignedPage.add(for: source, why: why, self)
        } else {
            addBlank(source: source, why: why)
        }
    }

    /// `startOn` for the pages a printed book sets on a given side (the title page's back, the
    /// dedication, the contents); a book read on screen has no sides to keep.
    func startInPrint(_ side: PageSide, source: Int?, why: String) {
        if book.profile != nil { startOn(side, source: source, why: why) }
    }

    /// A blank page, its reason kept on the page and reported.
    func addBlank(source: Int?, why: String) {
        let index = addPage(.blank, source: nil)
        pages[index].blankReason = why
        pages[index].insertedFor = source
        findings.append(Finding(.warning, .blankPageInserted, sourcePage: source, physicalPages: [pages[index].number],
                                "blank page inserted " + why))
    }

    /// What was decided for the whole book before its pages were laid out (see `PagePlanner`).
    var plan = LayoutPlan()

    /// A chapter title waiting for the picture page that opens the chapter, which sets it above its
    /// words (a picture book gives a chapter no page of its own).
    var carriedHeading: String?

    /// Room left on a chapter's sunk opening page for the text that follows it: the page, and
    /// where on it that text may start. Taken by the next text page; dropped by any other page.
    var openingRoom: (index: Int, top: Double)?

    /// Resolve reported the missing picture; layout adds the physical page it ended up on.
    func notePlaceholder(onPage number: Int, source: Int?) {
        for i in findings.indices where findings[i].sourcePage == source
            && (findings[i].kind == .placeholder || findings[i].kind == .missingImage)
            && !findings[i].physicalPages.contains(number) {
            findings[i].physicalPages.append(number)
        }
    }

    // MARK: Text

    func style(_ role: TypeRole, scale: Double = 1) -> TextStyle {
        TextStyle(family: role.family, size: role.size * scale, weight: role.weight, italic: role.italic,
                  lineHeight: role.lineHeight, letterSpacing: 0, firstLineIndent: role.indent * role.size * scale,
                  paragraphSpacing: (role.paragraphSpacing ?? 0) * role.size * scale)
    }

    func alignment(_ role: TypeRole) -> TextAlignment {
        switch role.align {
        case "center": return .center
        case "end", "right": return .end
        case "justify": return .justify
        default: return .start
        }
    }

    func setText(_ text: String, role: TypeRole, width: Double, scale: Double = 1, alignment: TextAlignment? = nil) -> TextLayout {
        setText(request(text, role: role, width: width, scale: scale, alignment: alignment))
    }

    func setText(_ r: TextRequest) -> TextLayout {
        typesetter.layout(r.text, style: r.style, width: r.width, alignment: r.alignment, hyphenate: r.hyphenate,
                          lineBreaking: r.lineBreaking)
    }

    func request(_ text: String, role: TypeRole, width: Double, scale: Double = 1, alignment: TextAlignment? = nil) -> TextRequest {
        TextRequest(text: text, style: style(role, scale: scale), width: width,
                    alignment: alignment ?? self.alignment(role), hyphenate: role.hyphenate,
                    lineBreaking: LineBreaking(token: book.tokens.typography.lineBreaking))
    }

    /// A whole layout placed with its first line's top at `origin.y`.
    func textBox(_ layout: TextLayout, x: Double, y: Double, width: Double, color: Color? = nil,
                 structure: TextStructure = .paragraph) -> TextBox {
        var box = TextBox(layout: layout, lines: 0..<layout.lines.count,
                          frame: Rect(x: x, y: y, width: width, height: layout.height), color: color ?? palette.ink)
        box.structure = structure
        return box
    }

    // MARK: Folios

    /// The page number, centred in the bottom margin.
    func addFolio(to index: Int, across span: Rect? = nil) {
        let number = pages[index].number
        let role = tokens.typography.pageNumber
        let x = span?.x ?? 0, w = span?.width ?? width
        let layout = setText(String(number), role: role, width: w, alignment: .center)
        // Centred in the bottom margin, but never below the printer's safety line.
        let lowest = height - Self.folioClearance(book.profile, role: role) - layout.height
        let y = min(height - book.margins.bottom / 2 - layout.height / 2, lowest)
        append(.text(textBox(layout, x: x, y: y, width: w, color: palette.muted, structure: .artifact)), to: index)
    }

    /// How far a folio's line box stays above the trim: the printer's distance, plus what a
    /// font's box (as a PDF reader measures a word) can reach below the line box.
    static func folioClearance(_ profile: PrintProfile?, role: TypeRole) -> Double {
        guard let profile else { return 0.3 * role.size }
        return profile.safeInsets(pageCount: 0).bottom + fontBoxBelowLine * role.size
    }

    /// What a font's box, as a PDF reader measures a word, can reach beyond the line box Pango
    /// gives, in ems: the fonts' own ascent and descent figures are larger than their lines'.
    static let fontBoxBelowLine = 0.35
    static let fontBoxAboveLine = 0.15

    /// The top margin a print book needs so the first line's font box stays below the safety line.
    static func topMarginWithFontBox(_ book: ResolvedBook) -> Double {
        guard let profile = book.profile else { return book.margins.top }
        return max(book.margins.top, profile.safeInsets(pageCount: 0).top + fontBoxAboveLine * book.tokens.typography.body.size)
    }

    /// The bottom margin a print book needs so its folios sit inside the printer's safe zone and
    /// still clear the text above by half their size.
    static func bottomMarginWithFolio(_ book: ResolvedBook, typesetter: Typesetter) -> Double {
        let role = book.tokens.typography.pageNumber
        let style = TextStyle(family: role.family, size: role.size, weight: role.weight, italic: role.italic,
                              lineHeight: role.lineHeight, letterSpacing: 0, firstLineIndent: 0)
        let folio = typesetter.layout("0123456789", style: style, width: book.trim.width, alignment: .center, hyphenate: false)
        return max(book.margins.bottom, folioClearance(book.profile, role: role) + folio.height + 0.5 * role.size)
    }
}
