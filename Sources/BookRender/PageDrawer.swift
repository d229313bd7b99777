import Foundation
import CGraphics
import BookConfig
import BookResolve
import BookLayout

/// The draw stage: walks one page of the page tree onto a cairo context. The same code paints the
/// PDF surface and the PNG image surface; only the surface and the image sources differ.
final class PageDrawer {
    private let images: ImageSources
    /// Draw without transparency (print profiles that take none): translucent fills, shadows and
    /// cut-outs mixed with what is under them when that is one flat colour (`PageBackdrop`).
    private let opaque: Bool
    private var backdrop = PageBackdrop()
    /// How text is drawn. Glyph runs (see `TextLayout.glyphLines`) are the same glyphs at the same
    /// positions as Pango's drawing (and, on a PDF, the same text behind them), drawn by cairo
    /// alone, so on any thread, whichever thread laid the text out.
    enum TextDrawing {
        /// Glyph runs where the layout can have them (PNG workers share one tree).
        case glyphRuns
        /// Glyph runs made for this drawing where no helper thread made them already, so not kept
        /// (the PDF: its text layer is the runs' text, see `RunText`).
        case glyphRunsMadeHere
        /// Pango for every text (to hold the glyph runs to Pango's drawing in tests).
        case pango
    }
    private let textDrawing: TextDrawing
    /// Marks each item with its structure element (`StructureTags`), for a tagged PDF.
    private let tagged: Bool
    /// The headings drawn so far, for their levels: one drawer draws one document's pages in order.
    private var headings = StructureTags.HeadingLevels()
    /// The paragraph of each `P` element drawn so far.
    private(set) var paragraphs = StructureTags.ParagraphNumbers()

    init(images: ImageSources, opaque: Bool = false, text: TextDrawing, tagged: Bool = false) {
        self.images = images; self.opaque = opaque; self.textDrawing = text; self.tagged = tagged
    }

    func draw(_ page: PageNode, on cr: OpaquePointer) throws {
        try draw(page, items: page.items.indices, on: cr)
    }

    /// The items of `page` at `range`, over what is drawn already.
    func draw(_ page: PageNode, items range: Range<Int>, on cr: OpaquePointer) throws {
        backdrop = PageBackdrop()
        if tagged { paragraphs.startPage() }
        for index in range {
            let item = page.items[index]
            defer { if case .fill = item {} else { backdrop.add(PageBackdrop.extent(of: item)) } }
            var tag = tagged ? StructureTags.element(for: item) : nil
            if case .text(let t) = item, let element = tag {
                if element == "P" {
                    // One element per paragraph, so that a reader of the tags keeps them apart.
                    let parts = StructureTags.paragraphs(of: t)
                    for part in parts { paragraphs.add(t, part: part) }
                    try text(t, parts, element: element, cr, page: page, index: index)
                    continue
                }
                if element == "H1" { tag = headings.element(for: t) }
            }
            if let tag { cairo_tag_begin(cr, tag, "") }
            defer { if let tag { cairo_tag_end(cr, tag) } }
            switch item {
            case .fill(let f): fill(f, cr)
            case .image(let box):
                do {
                    if opaque, box.asset.info.hasAlpha, backdrop.color(under: box.clip) == nil {
                        // Its transparency over what is not one colour: the spot as it looks, opaque.
                        try TransparencyPatch.paint(page, through: index, in: box.clip, on: cr)
                    } else {
                        try image(box, cr)
                    }
                } catch {
                    let source = page.sourcePage.map { " ($.pages[\($0)])" } ?? ""
                    // A picture that is damaged, too large or replaced while the book rendered is the
                    // book's fault (as `validate` reports it), not the renderer's.
                    if let bad = error as? ImageError, bad.kind != .writeFailed, bad.kind != .outOfMemory {
                        throw ImageError(bad.kind, "page \(page.number)\(source): \(box.asset.origin) is not a usable image: \(bad.message)")
                    }
                    throw RenderError("page \(page.number)\(source): cannot draw \(box.asset.origin): \(error)")
                }
            case .text(let t): try text(t, [t.lines], element: nil, cr, page: page, index: index)
            case .rule(let r): rule(r, cr)
            case .qr(let q): qr(q, cr)
            case .placeholderArt(let p): PlaceholderPainter.paint(p, on: cr, opaque: opaque)
            case .registration(let r): registration(r, cr)
            }
        }
    }

    private func fill(_ f: Fill, _ cr: OpaquePointer) {
        if let fade = f.fade {
            // A veil is translucent by nature: where the printer takes no transparency, layout
            // gives the text a band instead, and none reaches here.
            guard !opaque else { return }
            faded(f, fade, cr)
            return
        }
        if let s = f.shadow { shadow(s, under: f.rect, cornerRadius: f.cornerRadius, cr) }
        CairoPaths.roundedRect(cr, f.rect, radius: f.cornerRadius)
        let under = opaque && f.color.alpha < 1 ? backdrop.color(under: f.rect) ?? backdrop.paper : nil
        CairoPaths.setColor(cr, f.color, over: under)
        cairo_fill(cr)
        let painted = under.map { $0.mixed(with: f.color.withAlpha(1), f.color.alpha) } ?? f.color
        backdrop.add(f.rect, flat: f.cornerRadius == 0 ? painted : nil)
    }

    private func faded(_ f: Fill, _ fade: Fade, _ cr: OpaquePointer) {
        let c = f.color
        let pattern: OpaquePointer
        switch fade {
        case .linear(let from, let to, let vertical):
            pattern = vertical ? cairo_pattern_create_linear(0, from, 0, to) : cairo_pattern_create_linear(from, 0, to, 0)
            cairo_pattern_add_color_stop_rgba(pattern, 0, c.red, c.green, c.blue, c.alpha)
            // Eased, so the veil has no edge where it ends.
            cairo_pattern_add_color_stop_rgba(pattern, 0.6, c.red, c.green, c.blue, c.alpha * 0.45)
            cairo_pattern_add_color_stop_rgba(pattern, 1, c.red, c.green, c.blue, 0)
        case .radial(let x, let y, let rx, let ry):
            // A circle scaled to the ellipse: full within the radii, none at twice them.
            pattern = cairo_pattern_create_radial(0, 0, 0, 0, 0, 2)
            var m = cairo_matrix_t()
            cairo_matrix_init_scale(&m, 1 / rx, 1 / ry)
            cairo_matrix_translate(&m, -x, -y)
            cairo_pattern_set_matrix(pattern, &m)
            cairo_pattern_add_color_stop_rgba(pattern, 0, c.red, c.green, c.blue, c.alpha)
            cairo_pattern_add_color_stop_rgba(pattern, 0.5, c.red, c.green, c.blue, c.alpha)
            cairo_pattern_add_color_stop_rgba(pattern, 0.75, c.red, c.green, c.blue, c.alpha * 0.45)
            cairo_pattern_add_color_stop_rgba(pattern, 1, c.red, c.green, c.blue, 0)
        }
        cairo_save(cr)
        cairo_rectangle(cr, f.rect.x, f.rect.y, f.rect.width, f.rect.height)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
        cairo_restore(cr)
        cairo_pattern_destroy(pattern)
        backdrop.add(f.rect, flat: nil)
    }

    private func shadow(_ s: Shadow, under rect: Rect, cornerRadius: Double, _ cr: OpaquePointer) {
        let extent = CairoPaths.shadowExtent(under: rect, shadow: s)
        let under = backdrop.color(under: extent)
        if opaque && under == nil { return }
        CairoPaths.shadow(cr, under: rect, cornerRadius: cornerRadius, shadow: s,
                          over: opaque ? under : nil)
        backdrop.add(extent)
    }

    private func image(_ box: ImageBox, _ cr: OpaquePointer) throws {
        // First, so a cut-out's backdrop is known to include it.
        if let s = box.shadow { shadow(s, under: box.clip, cornerRadius: box.cornerRadius, cr) }
        var src = try images.surface(for: box)
        var composited: OpaquePointer?
        defer { if let composited { cairo_surface_destroy(composited) } }
        if opaque && box.asset.info.hasAlpha, let under = backdrop.color(under: box.clip) {
            composited = Self.flatten(src.surface, onto: under)
            src = ImageSurface(surface: composited!, pixelWidth: src.pixelWidth, pixelHeight: src.pixelHeight,
                               storedWidth: src.storedWidth, storedHeight: src.storedHeight)
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        CairoPaths.roundedRect(cr, box.clip, radius: box.cornerRadius)
        cairo_clip(cr)
        let info = box.asset.info
        cairo_translate(cr, box.frame.x, box.frame.y)
        cairo_scale(cr, box.frame.width / Double(info.orientedWidth), box.frame.height / Double(info.orientedHeight))
        var m = Self.orientation(info.orientation, width: Double(src.storedWidth), height: Double(src.storedHeight))
        cairo_transform(cr, &m)
        if src.pixelWidth != src.storedWidth || src.pixelHeight != src.storedHeight {
            cairo_scale(cr, Double(src.storedWidth) / Double(src.pixelWidth), Double(src.storedHeight) / Double(src.pixelHeight))
        }
        cairo_set_source_surface(cr, src.surface, 0, 0)
        let pattern = cairo_get_source(cr)
        // Padding stops the page edge of a full-bleed raster fading into the paper; the PDF keeps
        // the plain pattern so cairo can pass the JPEG through.
        if images.padsEdges { cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD) }
        cairo_pattern_set_filter(pattern, images.interpolates ? CAIRO_FILTER_GOOD : CAIRO_FILTER_FAST)
        cairo_paint(cr)
    }

    /// An opaque copy of a picture with transparency, over a flat backdrop.
    static func flatten(_ surface: OpaquePointer, onto backdrop: Color) -> OpaquePointer {
        let w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface)
        let out = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h)!
        let cr = cairo_create(out)!
        cairo_set_source_rgb(cr, backdrop.red, backdrop.green, backdrop.blue)
        cairo_paint(cr)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(out)
        return out
    }

    /// Maps stored pixels to the upright picture for EXIF orientations 1–8, so the PDF (JPEG passed
    /// through unrotated) and the PNG agree.
    static func orientation(_ o: Int, width w: Double, height h: Double) -> cairo_matrix_t {
        let t = ExifOrientation.transform(o, width: w, height: h)
        var m = cairo_matrix_t()
        cairo_matrix_init(&m, t.xx, t.yx, t.xy, t.yy, t.x0, t.y0)
        return m
    }

    /// Where the colour glyphs of `t` leave ink (page coordinates, a point beyond each), for the
    /// PDF's glyph runs; none for a text set otherwise.
    private func colourGlyphAreas(_ t: TextBox, _ runs: [[GlyphRun]]) -> [Rect] {
        guard runs.joined().contains(where: \.colorGlyphs) else { return [] }
        // A turned text's glyphs are not measured: its whole box is the patch.
        if t.turnedClockwise { return [t.frame.inset(by: -PageBackdrop.glyphOverhang)] }
        let scale = Double(PANGO_SCALE)
        var areas: [Rect] = []
        for i in t.lines where i < runs.count {
            let line = t.layout.lines[i]
            let originX = t.frame.x + line.x, originY = t.frame.y + line.baseline - t.layoutTop
            for run in runs[i] where run.colorGlyphs && !run.glyphs.isEmpty {
                var glyphs = run.glyphs.map { g in
                    cairo_glyph_t(index: UInt(g.index), x: originX + Double(run.x + g.x) / scale, y: originY + Double(run.y + g.y) / scale)
                }
                var extents = cairo_text_extents_t()
                cairo_scaled_font_glyph_extents(run.font.pointer, &glyphs, Int32(glyphs.count), &extents)
                guard extents.width > 0, extents.height > 0 else { continue }
                // cairo measures from the first glyph's origin.
                areas.append(Rect(x: glyphs[0].x + extents.x_bearing - 1, y: glyphs[0].y + extents.y_bearing - 1,
                                  width: extents.width + 2, height: extents.height + 2))
            }
        }
        return areas
    }

    /// `parts`: the box's lines to draw, each part in its own structure `element` when one is given
    /// (a tagged PDF's paragraphs), placed as in the whole box. `index`: the box's place in `page`.
    private func text(_ t: TextBox, _ parts: [Range<Int>], element: String?, _ cr: OpaquePointer, page: PageNode,
                      index: Int) throws {
        let runs: [[GlyphRun]]?
        switch textDrawing {
        case .glyphRuns: runs = t.layout.glyphLines
        case .glyphRunsMadeHere: runs = t.layout.glyphLinesForOneDrawing
        case .pango: runs = nil
        }
        // Colour glyphs are pictures with transparency: without it, each is a patch of the page
        // as it looks there, and the text's other glyphs are drawn over it as text.
        let patches = opaque ? runs.map { colourGlyphAreas(t, $0) } ?? [] : []
        for area in patches { try TransparencyPatch.paint(page, through: index, in: area, on: cr) }
        CairoPaths.setColor(cr, t.color)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if t.turnedClockwise {
            cairo_translate(cr, t.frame.maxX, t.frame.y)
            cairo_rotate(cr, Double.pi / 2)
        } else {
            cairo_translate(cr, t.frame.x, t.frame.y)
        }
        for lines in parts {
            if let element { cairo_tag_begin(cr, element, "") }
            if let runs { glyphLines(t, lines, runs, cr, colourGlyphs: patches.isEmpty) } else { pangoLines(t, lines, cr) }
            if let element { cairo_tag_end(cr, element) }
        }
    }

    /// For a text glyph runs cannot draw (a missing glyph's box). Into a PDF, a text that is not the
    /// book's is filled as outlines, which carry no text.
    private func pangoLines(_ t: TextBox, _ lines: Range<Int>, _ cr: OpaquePointer) {
        let top = t.layoutTop
        let outlines = !t.isBookText && cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0
        for i in lines {
            let line = t.layout.lines[i]
            cairo_move_to(cr, line.x, line.baseline - top)
            let drawn = t.layout.showWithPango(line: i, on: cr, asPath: outlines)
            if drawn && outlines { cairo_fill(cr) } else if !drawn { cairo_new_path(cr) }
        }
    }

    /// Glyph positions as `pango_cairo_show_layout_line` computes them (Pango 1.50's renderer: from
    /// the current point cairo keeps, Pango units added as integers before dividing), so the pixels
    /// are the same. Into a PDF, the runs of a box that share a font go to cairo in one
    /// `cairo_show_text_glyphs` instead of one each inside a save and restore: cairo records,
    /// analyses and replays every call, and its PDF operators join consecutive glyphs of one font
    /// into one text object either way, so the file is the same byte for byte. A run without glyphs
    /// (a tab) is left out, as cairo leaves out a call without glyphs, and a right-to-left run is
    /// shown on its own (its clusters count from its last glyph). On an image, each run is its own
    /// call as in Pango: glyphs composited together blend differently where they touch.
    /// `colourGlyphs` false leaves colour glyphs out (a patch shows them), their text still carried.
    private func glyphLines(_ t: TextBox, _ lines: Range<Int>, _ runs: [[GlyphRun]], _ cr: OpaquePointer,
                            colourGlyphs: Bool = true) {
        let top = t.layoutTop
        let scale = Double(PANGO_SCALE)
        // As Pango does: the text goes along only where the surface keeps it (a PDF).
        let withText = cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0
        var glyphs: [cairo_glyph_t] = [], text: [CChar] = [], clusters: [cairo_text_cluster_t] = []
        var font: OpaquePointer?
        var backward = false
        func show() {
            guard let font, !glyphs.isEmpty else { return }
            cairo_set_scaled_font(cr, font)
            if withText && !t.isBookText {
                // All glyphs for no text: cairo wraps them in an empty ActualText span, which
                // readers take as the text in place of the font's own mapping.
                var none = cairo_text_cluster_t(num_bytes: 0, num_glyphs: Int32(glyphs.count))
                cairo_show_text_glyphs(cr, "", 0, glyphs, Int32(glyphs.count), &none, 1, cairo_text_cluster_flags_t(0))
            } else if withText {
                cairo_show_text_glyphs(cr, text, Int32(text.count), glyphs, Int32(glyphs.count), clusters, Int32(clusters.count),
                                       backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0))
            } else {
                cairo_show_glyphs(cr, glyphs, Int32(glyphs.count))
            }
            glyphs.removeAll(keepingCapacity: true)
            text.removeAll(keepingCapacity: true)
            clusters.removeAll(keepingCapacity: true)
        }
        // The drawn lines' runs, from `lines.lowerBound` on. Into a PDF, a word or token broken
        // across lines with no hyphen added is one word in the text (see `joiningBrokenTokens`).
        var drawn = Array(runs[lines.clamped(to: runs.indices)])
        if withText && t.isBookText && !lines.isEmpty && lines.upperBound <= runs.count {
            let continues = lines.map { i in
                let line = t.layout.lines[i]
                return line.indexInParagraph + 1 < line.paragraphLineCount && !line.text.hasSuffix("\u{2028}")
            }
            drawn = GlyphRun.joiningBrokenTokens(drawn, continues: continues)
        }
        // Looked up once per box: a box of emoji alone would otherwise be searched once per run.
        let plainFont = runs.joined().first { !$0.colorGlyphs }?.font.pointer
        cairo_save(cr)
        for (i, lineRuns) in zip(lines, drawn) {
            let line = t.layout.lines[i]
            cairo_move_to(cr, line.x, line.baseline - top)
            var originX = 0.0, originY = 0.0
            cairo_get_current_point(cr, &originX, &originY)
            for run in lineRuns where !run.glyphs.isEmpty {
                if run.colorGlyphs && !colourGlyphs {
                    show()
                    if withText && t.isBookText {
                        carryText(of: run, at: originX + Double(run.x) / scale, originY + Double(run.y) / scale, plainFont: plainFont, cr)
                    }
                    continue
                }
                if run.font.pointer != font || run.backward || backward || !withText {
                    show()
                    font = run.font.pointer
                    backward = run.backward
                }
                let baseX = originX + Double(run.x) / scale
                let baseY = originY + Double(run.y) / scale
                for g in run.glyphs {
                    glyphs.append(cairo_glyph_t(index: UInt(g.index), x: baseX + Double(g.x) / scale,
                                                y: g.y == 0 ? baseY : baseY + Double(g.y) / scale))
                }
                text.append(contentsOf: run.text)
                clusters.append(contentsOf: run.clusters)
                if run.colorGlyphs && withText && t.isBookText {
                    show()
                    carryText(of: run, at: baseX, baseY, plainFont: plainFont, cr)
                }
            }
        }
        show()
        cairo_restore(cr)
    }

    /// Cairo paints colour glyphs as pictures into a PDF and drops their text. So each cluster's
    /// text goes again on an inkless glyph (a space of a plain font of the same box) stretched to
    /// the cluster's advance, where extraction then finds it, with no gap to read as a space.
    private func carryText(of run: GlyphRun, at baseX: Double, _ baseY: Double, plainFont: OpaquePointer?, _ cr: OpaquePointer) {
        guard let plainFont else { return }
        var found: UnsafeMutablePointer<cairo_glyph_t>?
        var foundCount: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(plainFont, 0, 0, " ", 1, &found, &foundCount, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
              let found, foundCount == 1 else { return }
        var space = cairo_glyph_t(index: found.pointee.index, x: 0, y: 0)
        cairo_glyph_free(found)
        var spaceExtents = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(plainFont, &space, 1, &spaceExtents)
        guard spaceExtents.x_advance > 0 else { return }
        let face = cairo_scaled_font_get_font_face(plainFont)
        var fontMatrix = cairo_matrix_t(), ctm = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(plainFont, &fontMatrix)
        cairo_scaled_font_get_ctm(plainFont, &ctm)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_scaled_font_get_font_options(plainFont, options)

        let scale = Double(PANGO_SCALE)
        var glyphIndex = 0, byte = 0
        for cluster in run.clusters {
            let glyphs = run.glyphs[glyphIndex..<glyphIndex + Int(cluster.num_glyphs)]
            let bytes = run.backward ? run.text.count - byte - Int(cluster.num_bytes) : byte
            glyphIndex += Int(cluster.num_glyphs); byte += Int(cluster.num_bytes)
            guard let first = glyphs.first, cluster.num_bytes > 0 else { continue }
            var drawn = glyphs.map { cairo_glyph_t(index: UInt($0.index), x: 0, y: 0) }
            var extents = cairo_text_extents_t()
            cairo_scaled_font_glyph_extents(run.font.pointer, &drawn, Int32(drawn.count), &extents)
            var stretched = fontMatrix
            cairo_matrix_scale(&stretched, max(extents.x_advance, 0.01) / spaceExtents.x_advance, 1)
            guard let font = cairo_scaled_font_create(face, &stretched, &ctm, options) else { continue }
            defer { cairo_scaled_font_destroy(font) }
            var glyph = cairo_glyph_t(index: space.index, x: baseX + Double(first.x) / scale, y: baseY + Double(first.y) / scale)
            var one = cairo_text_cluster_t(num_bytes: cluster.num_bytes, num_glyphs: 1)
            cairo_set_scaled_font(cr, font)
            run.text.withUnsafeBufferPointer { text in
                _ = cairo_show_text_glyphs(cr, text.baseAddress! + bytes, cluster.num_bytes, &glyph, 1, &one, 1, cairo_text_cluster_flags_t(0))
            }
        }
    }

    private func registration(_ r: RegistrationMark, _ cr: OpaquePointer) {
        let (x, y) = r.center
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, r.radius, 0, 2 * Double.pi)
        for (dx, dy) in [(1.5, 0.0), (0.0, 1.5)] {
            cairo_move_to(cr, x - dx * r.radius, y - dy * r.radius)
            cairo_line_to(cr, x + dx * r.radius, y + dy * r.radius)
        }
        cairo_set_line_width(cr, 0.25)
        CairoPaths.setColor(cr, r.color)
        cairo_stroke(cr)
    }

    private func rule(_ r: Rule, _ cr: OpaquePointer) {
        cairo_move_to(cr, r.from.x, r.from.y)
        cairo_line_to(cr, r.to.x, r.to.y)
        cairo_set_line_width(cr, r.width)
        CairoPaths.setColor(cr, r.color)
        cairo_stroke(cr)
    }

    /// Dark modules merged into horizontal runs and filled as one path: vector, crisp at any DPI,
    /// and no hairline seams between neighbouring modules.
    private func qr(_ q: QRBox, _ cr: OpaquePointer) {
        let m = q.frame.width / Double(q.size)
        for row in 0..<q.size {
            var col = 0
            while col < q.size {
                guard q.modules[row * q.size + col] else { col += 1; continue }
                let start = col
                while col < q.size, q.modules[row * q.size + col] { col += 1 }
                cairo_rectangle(cr, q.frame.x + Double(start) * m, q.frame.y + Double(row) * m, Double(col - start) * m, m)
            }
        }
        CairoPaths.setColor(cr, q.color)
        cairo_fill(cr)
    }
}
