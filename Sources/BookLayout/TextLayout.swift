import CGraphics
import CShim

/// One laid-out text: its Pango layouts (for drawing) and the measured lines (for pagination and
/// tests). All lengths are in points, in layout coordinates: y grows downward from the top of the
/// first line's box, x from the left edge of the layout width.
///
/// The Pango layouts belong to the thread of the Typesetter that made them; draw them there. Never
/// call `pango_cairo_update_layout` (or change their context): Pango would lay the text out again
/// for that device, with other breaks and without the justification applied here.
public final class TextLayout {
    /// One Pango layout of a run of paragraphs (see `Typesetter.blocks(of:)`), and where its text
    /// starts in `text`.
    public struct Block {
        public let layout: OpaquePointer
        public let byteOffset: Int
        /// How much wider than the column the layout is set (Pango units), so that lines whose
        /// spaces are to shrink fit it; justification then brings them back to the column.
        let overhang: Int32
        /// The block's lines when they were set from its measurement (see `BrokenLines`): then
        /// `layout` is that measurement, one line per paragraph, and these are the lines.
        let broken: BrokenLines?

        init(layout: OpaquePointer, byteOffset: Int, overhang: Int32 = 0, broken: BrokenLines? = nil) {
            self.layout = layout
            self.byteOffset = byteOffset
            self.overhang = overhang
            self.broken = broken
        }
    }

    /// Where a line's runs are: Pango's line, or a line `BrokenLines` set.
    enum LineSource {
        case pango(UnsafeMutablePointer<PangoLayoutLine>)
        case broken(BrokenLines, Int)

        /// The line's runs in order, the text their items index, and where the line starts in it.
        var runs: (runs: [UnsafeMutablePointer<PangoGlyphItem>], text: UnsafePointer<CChar>, start: Int)? {
            switch self {
            case .pango(let line):
                guard let text = pango_layout_get_text(line.pointee.layout) else { return nil }
                return (Self.runs(of: line), text, Int(line.pointee.start_index))
            case .broken(let lines, let index):
                return (lines.lines[index].runs, UnsafePointer(lines.text), lines.lines[index].start)
            }
        }

        /// A Pango line's runs, in its list's order.
        static func runs(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [UnsafeMutablePointer<PangoGlyphItem>] {
            var runs: [UnsafeMutablePointer<PangoGlyphItem>] = []
            var node = line.pointee.runs
            while let n = node {
                node = n.pointee.next
                if let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) { runs.append(run) }
            }
            return runs
        }
    }

    /// The text as laid out: paragraphs joined by "\n", line breaks inside a paragraph as U+2028,
    /// and the U+00AD soft hyphens hyphenation inserted. `TextLine.byteRange` indexes its UTF-8.
    public let text: String
    /// Empty once `releasePango` has run.
    public private(set) var blocks: [Block]
    public let lines: [TextLine]
    /// Pango's line (or the line set without Pango) for each of `lines`, from the block that holds it.
    private var pangoLines: [LineSource]
    /// Bottom of the last line's box.
    public var height: Double
    /// Characters drawn as hex boxes because no font of the set has them.
    public let unknownGlyphCount: Int
    /// The text holds a private-use character (U+E000–U+F8FF, planes 15 and 16).
    public let hasPrivateUse: Bool
    /// The font files the runs actually use.
    public let fontFiles: Set<String>
    public let style: TextStyle
    public let width: Double
    public let alignment: TextAlignment
    /// Whether a hyphenation dictionary was applied (false when none exists for the language).
    public let hyphenated: Bool

    /// Every line as plain glyph runs (see `GlyphRun`), or nil when a line needs Pango to draw it.
    /// Made on first use, which must be on the thread that owns the layout; once made, the runs can
    /// be drawn on any thread, so one layout serves every PNG worker.
    public var glyphLines: [[GlyphRun]]? {
        if let made = madeGlyphLines { return made }
        let made = GlyphRuns.extract(pangoLines)
        madeGlyphLines = .some(made)
        return made
    }

    /// The glyph runs if something made them already (a helper thread does before it hands a
    /// layout over), without making them: nil when not made, .some(nil) when Pango must draw.
    public var glyphLinesIfMade: [[GlyphRun]]?? { madeGlyphLines }

    /// The glyph runs, made now if nothing made them yet and not kept (so on the thread that owns
    /// the layout): for a drawing that needs them once.
    public var glyphLinesForOneDrawing: [[GlyphRun]]? {
        if let made = madeGlyphLines { return made }
        return GlyphRuns.extract(pangoLines)
    }
    private var madeGlyphLines: [[GlyphRun]]??

    init(text: String, blocks: [Block], lines: [TextLine], pangoLines: [LineSource], height: Double,
         unknownGlyphCount: Int, hasPrivateUse: Bool = false, fontFiles: Set<String>, style: TextStyle, width: Double, alignment: TextAlignment, hyphenated: Bool) {
        self.text = text
        self.blocks = blocks
        self.lines = lines
        self.pangoLines = pangoLines
        self.height = height
        self.unknownGlyphCount = unknownGlyphCount
        self.hasPrivateUse = hasPrivateUse
        self.fontFiles = fontFiles
        self.style = style
        self.width = width
        self.alignment = alignment
        self.hyphenated = hyphenated
    }

    deinit { for block in blocks { shim_object_unref(UnsafeMutableRawPointer(block.layout)) } }

    /// Calls `body` with each glyph's advance (points) and the UTF-8 offset in `text` of the
    /// cluster it belongs to, over every block's Pango layout (the measurement, where lines were set
    /// from one). On the thread that owns the layout.
    func forEachCluster(_ body: (_ byte: Int, _ advance: Double) -> Void) {
        for block in blocks {
            var node = pango_layout_get_lines_readonly(block.layout)
            while let n = node {
                node = n.pointee.next
                guard let line = n.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) else { continue }
                for run in LineSource.runs(of: line) {
                    guard let item = run.pointee.item, let glyphs = run.pointee.glyphs,
                          let infos = glyphs.pointee.glyphs, let clusters = glyphs.pointee.log_clusters else { continue }
                    let base = block.byteOffset + Int(item.pointee.offset)
                    for g in 0..<Int(glyphs.pointee.num_glyphs) {
                        body(base + Int(clusters[g]), Double(infos[g].geometry.width) / Double(PANGO_SCALE))
                    }
                }
            }
        }
    }

    /// Frees the Pango layouts, on the thread that owns them, once the glyph runs are made: the
    /// lines and runs are all a PDF export draws, and Pango's objects are most of a layout's
    /// memory, and a long memoir's would otherwise be held to the end. Afterwards `pangoLine` is nil. Does nothing
    /// when the runs are not made or Pango must draw.
    func releasePango() {
        guard case .some(.some) = madeGlyphLines else { return }
        for block in blocks { shim_object_unref(UnsafeMutableRawPointer(block.layout)) }
        blocks = []
        pangoLines = []
    }

    /// Pango's line `index`, for `pango_cairo_show_layout_line` with the current point at
    /// (`lines[index].x`, `lines[index].baseline`) shifted to the page; nil for a line set without
    /// a second Pango layout (see `showWithPango`). Valid while `self` lives.
    public func pangoLine(_ index: Int) -> UnsafeMutablePointer<PangoLayoutLine>? {
        guard pangoLines.indices.contains(index), case .pango(let line) = pangoLines[index] else { return nil }
        return line
    }

    /// Line `index` as `BrokenLines` set it, or nil.
    func brokenLine(_ index: Int) -> BrokenLines.Line? {
        guard pangoLines.indices.contains(index), case .broken(let lines, let i) = pangoLines[index] else { return nil }
        return lines.lines[i]
    }

    /// Line `index`'s runs, their text and where the line starts in it; nil once released.
    func lineRuns(_ index: Int) -> (runs: [UnsafeMutablePointer<PangoGlyphItem>], text: UnsafePointer<CChar>, start: Int)? {
        pangoLines.indices.contains(index) ? pangoLines[index].runs : nil
    }

    /// Draws line `index` with Pango's cairo renderer (or its outlines as the current path, with
    /// `asPath`), the current point at the line's start on its baseline, as
    /// `pango_cairo_show_layout_line` draws a line; false once the Pango objects are released.
    public func showWithPango(line index: Int, on cr: OpaquePointer, asPath: Bool) -> Bool {
        guard pangoLines.indices.contains(index) else { return false }
        switch pangoLines[index] {
        case .pango(let line):
            if asPath { pango_cairo_layout_line_path(cr, line) } else { pango_cairo_show_layout_line(cr, line) }
        case .broken(let lines, let i):
            // Run by run, as Pango's renderer draws a line's runs (none is shifted or moved: see `BrokenLines`).
            var x = 0.0, y = 0.0
            cairo_get_current_point(cr, &x, &y)
            var advance: Int32 = 0
            for run in lines.lines[i].runs {
                cairo_move_to(cr, x + Double(advance) / Double(PANGO_SCALE), y)
                if asPath {
                    pango_cairo_glyph_string_path(cr, run.pointee.item.pointee.analysis.font, run.pointee.glyphs)
                } else {
                    pango_cairo_show_glyph_item(cr, lines.text, run)
                }
                advance += pango_glyph_string_get_width(run.pointee.glyphs)
            }
        }
        return true
    }
}

/// One line of a TextLayout. Line boxes tile: each line's `top` is the previous line's bottom, so
/// the distance from one page's first line to any later line is a plain subtraction.
public struct TextLine: Sendable, Equatable {
    /// UTF-8 byte range in `TextLayout.text`, without the paragraph's "\n".
    public let byteRange: Range<Int>
    public let text: String
    /// Top of the line's box; its height is the line pitch (lineHeight × size for one font).
    public let top: Double
    /// Baseline position.
    public let baseline: Double
    public let height: Double
    /// Logical width of the line's glyphs (a trailing space at a break does not count).
    public let width: Double
    /// Left edge of the line's glyphs (indent and alignment included).
    public let x: Double
    /// Paragraph number, counted over the whole layout.
    public let paragraph: Int
    public let indexInParagraph: Int
    public let paragraphLineCount: Int
    /// The line was broken at a soft hyphen, so a hyphen is drawn at its end.
    public let endsWithSoftHyphen: Bool
    /// Pango's ink extents of the line's glyphs (the hyphen drawn at a break included), in layout
    /// coordinates like `top`: what actually prints. Empty (zero width) for a line of spaces.
    public let ink: Rect

    public var bottom: Double { top + height }

    public init(byteRange: Range<Int>, text: String, top: Double, baseline: Double, height: Double, width: Double,
                x: Double, paragraph: Int, indexInParagraph: Int, paragraphLineCount: Int, endsWithSoftHyphen: Bool,
                ink: Rect? = nil) {
        self.byteRange = byteRange
        self.text = text
        self.top = top
        self.baseline = baseline
        self.height = height
        self.width = width
        self.x = x
        self.paragraph = paragraph
        self.indexInParagraph = indexInParagraph
        self.paragraphLineCount = paragraphLineCount
        self.endsWithSoftHyphen = endsWithSoftHyphen
        self.ink = ink ?? Rect(x: x, y: top, width: width, height: height)
    }
}
