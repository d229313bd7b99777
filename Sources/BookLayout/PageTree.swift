import Foundation
import BookConfig
import BookResolve

/// The layout stage's output: every physical page as positioned boxes in page coordinates
/// (points, origin top-left). It knows nothing of PDF or PNG; the draw stage walks it.
public struct PageTree {
    public var trim: TrimSize
    /// Bleed and marks around the trim in the PDF (none for plain output).
    public var geometry: PrintGeometry = .none
    /// Bound on the right: viewers show its spreads right to left.
    public var bindsOnRight: Bool { geometry.bindsOnRight }
    public var pages: [PageNode]
    /// Resolve's findings plus layout's own (placeholders, missing glyphs, inserted blank pages).
    public var findings: [Finding]
    public var title: String
    public var author: String?
    /// ISO 8601, written as the PDF's dates so the same book gives the same bytes.
    public var created: String?
    /// Chapter openers in order, for the PDF outline: (title, physical page number).
    public var chapters: [(title: String, page: Int)] = []
    public var language: String = "en"
    /// The margins the pages were laid out with (the gutter may have grown for print).
    public var margins = ResolvedMargins(top: 0, bottom: 0, inner: 0, outer: 0)
    public var subtitle: String?
    /// For the PDF's keywords: the kind of book, its art style.
    public var keywords: [String] = []
    /// About how many characters a full line of body text holds, when the theme fitted the body.
    public var bodyMeasure: Double?

    /// Makes the glyph runs of every text on the tree, on this thread (which must own the tree's
    /// layouts); true when all of them can be drawn without Pango, so threads may share the tree.
    public func prepareGlyphRuns() -> Bool {
        pages.allSatisfy { page in
            page.items.allSatisfy { item in
                guard case .text(let box) = item else { return true }
                return box.layout.glyphLines != nil
            }
        }
    }
}

public enum PageSide: String, Sendable { case left, right }

/// What a physical page is, for reports and tests. A template may name a role of its own.
public struct PageRole: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let cover = PageRole(rawValue: "cover")
    public static let illustration = PageRole(rawValue: "illustration")
    public static let text = PageRole(rawValue: "text")
    public static let photo = PageRole(rawValue: "photo")
    public static let chapter = PageRole(rawValue: "chapter")
    public static let spreadLeft = PageRole(rawValue: "spreadLeft")
    public static let spreadRight = PageRole(rawValue: "spreadRight")
    public static let qr = PageRole(rawValue: "qr")
    public static let blank = PageRole(rawValue: "blank")
    /// A page of the book's own design (its main character as a vignette, or the theme's
    /// ornament) standing where a blank page would have to be.
    public static let designed = PageRole(rawValue: "designed")
    public static let halfTitle = PageRole(rawValue: "halfTitle")
    public static let copyright = PageRole(rawValue: "copyright")
    public static let dedication = PageRole(rawValue: "dedication")
    public static let contents = PageRole(rawValue: "contents")
    public static let theEnd = PageRole(rawValue: "theEnd")
    public static let aboutAuthor = PageRole(rawValue: "aboutAuthor")
}

public struct PageNode {
    /// 1-based physical page number; page 1 (the cover) is a right-hand page.
    public var number: Int
    public var role: PageRole
    /// Index in the book's `pages` this page was laid out from.
    public var sourcePage: Int?
    public var items: [PageItem]
    /// Why a blank page was put in ("so the spread … faces …"); nil for every other page.
    public var blankReason: String?
    /// For a blank or designed page put in so that an entry starts on the side it must: that
    /// entry's index in the book's `pages`.
    public var insertedFor: Int?
    /// How the page's picture is cropped and its text placed, when it shows one.
    public var art: [ArtPlacement] = []
    /// The theme's page colour when it is left to the paper (a print interior): not printed, and
    /// shown under the page in previews (PNG) as the stock it will be printed on. Nil when the
    /// page's own first item paints it, or for white.
    public var paper: Color?

    public var side: PageSide { (number % 2 == 1) != bindsOnRight ? .right : .left }

    public init(number: Int, role: PageRole, sourcePage: Int?, items: [PageItem] = [], bindsOnRight: Bool = false) {
        self.number = number; self.role = role; self.sourcePage = sourcePage; self.items = items
        self.bindsOnRight = bindsOnRight
    }

    /// The book is bound on the right, so odd pages are left-hand pages.
    public var bindsOnRight = false

    /// The text of every text box on the page, in drawing order (soft hyphens included).
    public var text: String {
        items.compactMap { item -> String? in
            if case .text(let t) = item { return t.text }
            return nil
        }.joined(separator: "\n")
    }

    public var images: [ImageBox] {
        items.compactMap { if case .image(let i) = $0 { return i } else { return nil } }
    }

    public var textBoxes: [TextBox] {
        items.compactMap { if case .text(let t) = $0 { return t } else { return nil } }
    }
}

public struct Rect: Sendable, Equatable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public func inset(by d: Double) -> Rect { Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
    public func contains(_ r: Rect, tolerance: Double = 0.01) -> Bool {
        r.x >= x - tolerance && r.y >= y - tolerance && r.maxX <= maxX + tolerance && r.maxY <= maxY + tolerance
    }
    public func union(_ r: Rect) -> Rect {
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    public var description: String { String(format: "(%.1f,%.1f %.1f×%.1f)", x, y, width, height) }
}

public enum PageItem {
    /// The same item moved by (dx, dy): lets a template laid out for one page be placed on a larger sheet.
    public func translated(dx: Double, dy: Double) -> PageItem {
        func move(_ r: Rect) -> Rect { Rect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
        switch self {
        case .fill(var f):
            f.rect = move(f.rect)
            switch f.fade {
            case .linear(let from, let to, let vertical)?:
                let d = vertical ? dy : dx
                f.fade = .linear(from: from + d, to: to + d, vertical: vertical)
            case .radial(let x, let y, let rx, let ry)?:
                f.fade = .radial(centerX: x + dx, centerY: y + dy, radiusX: rx, radiusY: ry)
            case nil: break
            }
            return .fill(f)
        case .image(var i): i.frame = move(i.frame); i.clip = move(i.clip); return .image(i)
        case .text(var t): t.frame = move(t.frame); return .text(t)
        case .rule(var r): r.from = (r.from.x + dx, r.from.y + dy); r.to = (r.to.x + dx, r.to.y + dy); return .rule(r)
        case .qr(var q): q.frame = move(q.frame); return .qr(q)
        case .placeholderArt(var p): p.rect = move(p.rect); return .placeholderArt(p)
        case .registration(var m): m.center = (m.center.x + dx, m.center.y + dy); return .registration(m)
        }
    }

    case fill(Fill)
    case image(ImageBox)
    case text(TextBox)
    case rule(Rule)
    case qr(QRBox)
    case placeholderArt(PlaceholderArt)
    case registration(RegistrationMark)
}

/// A printer's registration target: a circle with a cross through it.
public struct RegistrationMark {
    public var center: (x: Double, y: Double)
    public var radius: Double
    public var color: Color
}

public struct Fill {
    public var rect: Rect
    public var color: Color
    public var cornerRadius: Double = 0
    /// A soft drop shadow under the fill (radius, y offset, opacity), drawn first.
    public var shadow: Shadow?
    /// A veil that fades: `color` (at its alpha) where the fade starts, nothing where it ends.
    /// Only where the printer takes transparency; layout sets none for those that do not.
    public var fade: Fade? = nil
}

/// How a fill fades out, in page points.
public enum Fade: Sendable, Equatable {
    /// Along the line from `from` (full) to `to` (none): a veil rising from a page's edge.
    case linear(from: Double, to: Double, vertical: Bool)
    /// Full inside an ellipse of the given radii about `center`, none at twice them.
    case radial(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double)
}

public struct ImageBox {
    public var asset: ImageAsset
    /// Where the whole (EXIF-oriented) picture lands; larger than `clip` when it is cropped to fill,
    /// and spanning both pages of a spread.
    public var frame: Rect
    /// The visible part; drawing never leaves it.
    public var clip: Rect
    public var cornerRadius: Double = 0
    public var shadow: Shadow?
    /// What the picture shows, for readers that cannot see it (the PDF's `/Alt`).
    public var altText: String? = nil

    /// Effective resolution in pixels per inch (the lower of the two axes).
    public var effectiveDPI: Double {
        min(Double(asset.info.orientedWidth) / (frame.width / 72), Double(asset.info.orientedHeight) / (frame.height / 72))
    }
}

public struct TextBox {
    public var layout: TextLayout
    /// The layout's lines drawn here; a flowing text spreads its lines over many boxes.
    public var lines: Range<Int>
    /// The frame the lines were measured for; every line lies inside it.
    public var frame: Rect
    public var color: Color
    /// Set on a book's spine: the lines run top to bottom, turned a quarter clockwise about the
    /// frame's top-left corner, which then sits at the frame's top-right.
    public var turnedClockwise = false
    /// False for what only dresses the page (a placeholder's caption, a letter in a cover's
    /// medallion): drawn the same, but left out of the PDF's text, so search and copy find only
    /// the book.
    public var isBookText = true
    /// What the text is in the book's structure (the tagged PDF's element).
    public var structure: TextStructure = .paragraph

    /// Top of the first line in layout coordinates: subtracted so that line sits at `frame.y`.
    public var layoutTop: Double { lines.isEmpty ? 0 : layout.lines[lines.lowerBound].top }

    public var text: String { layout.lines[lines].map(\.text).joined(separator: "\n") }

    /// What the drawn lines' glyphs cover on the page (Pango's ink extents), the turn of a spine
    /// text included; a box of only spaces has none (zero size at the frame's corner).
    public var inkBounds: Rect {
        let rects = inkLines.map(\.ink)
        guard let first = rects.first else { return Rect(x: frame.x, y: frame.y, width: 0, height: 0) }
        return rects.dropFirst().reduce(first) { $0.union($1) }
    }

    /// Each drawn line that leaves ink, with its glyphs' ink in page coordinates.
    public var inkLines: [(text: String, ink: Rect)] {
        let top = layoutTop
        return lines.compactMap { i in
            let line = layout.lines[i]
            let ink = line.ink
            guard ink.width > 0, ink.height > 0 else { return nil }
            let placed = turnedClockwise
                // Turned a quarter clockwise about (frame.maxX, frame.y): layout x runs down the page,
                // layout y runs to the left.
                ? Rect(x: frame.maxX - (ink.maxY - top), y: frame.y + ink.x, width: ink.height, height: ink.width)
                : Rect(x: frame.x + ink.x, y: frame.y + ink.y - top, width: ink.width, height: ink.height)
            return (line.text, placed)
        }
    }
}

/// What a text is in the book's structure, for the tagged PDF and its readers.
public enum TextStructure: Sendable {
    /// The book's title (on the cover or title page).
    case title
    /// A chapter's heading.
    case heading
    case paragraph
    case caption
    /// What only dresses or numbers the page (page numbers, printer's marks, a placeholder's
    /// caption), kept out of the structure.
    case artifact
}

public struct Rule {
    public var from: (x: Double, y: Double)
    public var to: (x: Double, y: Double)
    public var width: Double
    public var color: Color
}

public struct QRBox {
    public var frame: Rect
    /// Modules per side.
    public var size: Int
    /// Row-major, true = dark.
    public var modules: [Bool]
    public var color: Color
}

/// The themed stand-in for a missing picture: a framed wash with a simple landscape motif.
public struct PlaceholderArt {
    public var rect: Rect
    public var wash: Color
    public var ink: Color
    public var accent: Color
    public var cornerRadius: Double
}
