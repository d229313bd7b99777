import CGraphics
import CShim

/// A cairo scaled font that several threads may draw with: cairo guards its glyph caches and
/// font faces itself, and nobody changes the font.
public final class SharedScaledFont: @unchecked Sendable {
    public let pointer: OpaquePointer

    init(retaining pointer: OpaquePointer) {
        self.pointer = cairo_scaled_font_reference(pointer)
    }

    deinit { cairo_scaled_font_destroy(pointer) }
}

/// One Pango run of a laid-out line as Pango's cairo renderer would draw it, in Pango units
/// relative to the line's origin: `x`/`y` are where `pango_renderer_draw_layout_line` puts the run
/// (its start offset and baseline shift included), each glyph's `x` is the sum of the advances
/// before it plus its own offset. Plain values, so a page of them can be drawn on any thread.
public struct GlyphRun: @unchecked Sendable {
    public struct Glyph: Sendable {
        /// A Pango glyph id (32 bits), which keeps the record 12 bytes.
        public let index: UInt32
        public let x: Int32
        public let y: Int32
    }
    public let font: SharedScaledFont
    public let x: Int32
    public let y: Int32
    public let glyphs: [Glyph]
    /// The run's characters (UTF-8) and which glyphs each cluster of them became, in the order
    /// Pango's cairo renderer hands them to `cairo_show_text_glyphs`, as a reader should find
    /// them (see `RunText`): a PDF keeps the text behind the glyphs for copying and search.
    /// `backward` for a right-to-left run.
    public let text: [CChar]
    public let clusters: [cairo_text_cluster_t]
    public let backward: Bool
    /// Its font's glyphs are pictures (colour emoji): cairo paints them as images and writes no
    /// text for them, so a PDF carries their text by other means (see `PageDrawer`).
    public let colorGlyphs: Bool
    /// The run ends a line with a hyphen Pango drew inside a word (its text ends in the
    /// hyphen-minus `RunText` gave it).
    public let endsInAddedHyphen: Bool
    /// The font's file, as fontconfig found it, and its size in points: what an e-book sets the
    /// run's text in.
    public let fontFile: String?
    public let fontSize: Double
}

enum GlyphRuns {
    /// The runs of each of `lines`, or nil when some line holds what only Pango draws: a hex box
    /// for a missing glyph, a shape or decoration attribute, a font cairo cannot load.
    static func extract(_ lines: [TextLayout.LineSource]) -> [[GlyphRun]]? {
        var runs: [[GlyphRun]] = []
        runs.reserveCapacity(lines.count)
        var fonts = Fonts()
        for line in lines {
            guard let (items, text, _) = line.runs, let lineRuns = extract(items, text: text, fonts: &fonts) else { return nil }
            runs.append(lineRuns)
        }
        return runs
    }

    /// Attributes that change only metrics, which the glyphs already carry, or only where lines
    /// may break, which the lines already show.
    private static let plainAttributes: Set<UInt32> = [
        PANGO_ATTR_LETTER_SPACING.rawValue, PANGO_ATTR_LINE_HEIGHT.rawValue, PANGO_ATTR_ABSOLUTE_LINE_HEIGHT.rawValue,
        PANGO_ATTR_ALLOW_BREAKS.rawValue, PANGO_ATTR_WORD.rawValue,
    ]

    /// The cairo font of the Pango font the runs before used, most lines being in one font.
    private struct Fonts {
        var pango: UnsafeMutablePointer<PangoFont>?
        var scaled: SharedScaledFont?
        var colorGlyphs = false
        var file: String?
        var size = 0.0

        mutating func of(_ font: UnsafeMutablePointer<PangoFont>) -> (SharedScaledFont, Bool)? {
            if font == pango, let scaled { return (scaled, colorGlyphs) }
            guard let pointer = shim_scaled_font(font), cairo_scaled_font_status(pointer) == CAIRO_STATUS_SUCCESS else { return nil }
            pango = font
            // Held open from its first use here on, where not all faces are (see `FontLibrary.holdsEveryFace`).
            if !FontLibrary.holdsEveryFace { shim_hold_face_of(font) }
            scaled = SharedScaledFont(retaining: pointer)
            colorGlyphs = hasColorGlyphs(font)
            if let name = shim_font_file(font) {
                file = String(cString: name)
                g_free(name)
            } else {
                file = nil
            }
            var matrix = cairo_matrix_t()
            cairo_scaled_font_get_font_matrix(pointer, &matrix)
            size = matrix.yy
            return (scaled!, colorGlyphs)
        }
    }

    private static func extract(_ items: [UnsafeMutablePointer<PangoGlyphItem>], text: UnsafePointer<CChar>,
                                fonts: inout Fonts) -> [GlyphRun]? {
        var runs: [GlyphRun] = []
        runs.reserveCapacity(items.count)
        // Sums of advances are kept wide: a line of a hundred thousand glyphs that cannot break
        // runs past Int32's range of Pango units. Its far end lies hundreds of metres off any
        // page, so a glyph's own offset is clamped there, never wrapped or trapped.
        var xOff: Int64 = 0
        for run in items {
            guard let item = run.pointee.item, let glyphString = run.pointee.glyphs else { return nil }
            let analysis = item.pointee.analysis
            if analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_CENTERED_BASELINE) != 0 { return nil }
            var attr = analysis.extra_attrs
            while let a = attr {
                attr = a.pointee.next
                guard let attribute = a.pointee.data?.assumingMemoryBound(to: PangoAttribute.self),
                      plainAttributes.contains(attribute.pointee.klass.pointee.type.rawValue) else { return nil }
            }
            guard let font = analysis.font, let (scaled, colorGlyphs) = fonts.of(font) else { return nil }

            xOff += Int64(run.pointee.start_x_offset)
            let count = Int(glyphString.pointee.num_glyphs)
            var position: Int64 = 0
            var boxed = false
            let glyphs = [GlyphRun.Glyph](unsafeUninitializedCapacity: count) { out, kept in
                kept = 0
                guard let infos = glyphString.pointee.glyphs else { return }
                for i in 0..<count {
                    let g = infos[i]
                    if g.glyph != PANGO_GLYPH_EMPTY {
                        if g.glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 {
                            // Pango leaves a missing space blank and boxes anything else.
                            if g.glyph != (0x20 | PANGO_GLYPH_UNKNOWN_FLAG) { boxed = true; return }
                        } else {
                            (out.baseAddress! + kept).initialize(to: .init(index: g.glyph,
                                                                          x: Int32(clamping: position + Int64(g.geometry.x_offset)),
                                                                          y: g.geometry.y_offset))
                            kept += 1
                        }
                    }
                    position += Int64(g.geometry.width)
                }
            }
            if boxed { return nil }
            let mapping = RunText.make(run, text: text, keepsClusters: colorGlyphs)
            runs.append(GlyphRun(font: scaled, x: Int32(clamping: xOff), y: Int32(clamping: -Int64(run.pointee.y_offset)), glyphs: glyphs,
                                 text: mapping.text, clusters: mapping.clusters, backward: analysis.level & 1 != 0,
                                 colorGlyphs: colorGlyphs, endsInAddedHyphen: mapping.addedHyphen,
                                 fontFile: fonts.file, fontSize: fonts.size))
            xOff += position + Int64(run.pointee.end_x_offset)
        }
        return runs
    }

    /// What fontconfig says of the font's file (every font here comes from fontconfig).
    private static func hasColorGlyphs(_ font: UnsafeMutablePointer<PangoFont>) -> Bool {
        guard let pattern = pango_fc_font_get_pattern(UnsafeMutablePointer<PangoFcFont>(OpaquePointer(font))) else { return false }
        var color: FcBool = 0
        return FcPatternGetBool(pattern, FC_COLOR, 0, &color) == FcResultMatch && color != 0
    }
}
