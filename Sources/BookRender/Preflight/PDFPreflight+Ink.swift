import Foundation
import BookConfig

extension PDFPreflight {
    /// Interiors are drawn coarsely: every pixel still takes the inks of what covers it, so the
    /// highest total and a text's colour are found as surely as at press resolution.
    static let interiorDPI = 50
    /// A cover sheet more finely: its fold clearances are sixteenths of an inch.
    static let coverDPI = 200

    /// What only a rendering shows, page by page: total ink over the profile's limit, black text
    /// in four inks (a CMYK printer's), content that reaches a trim edge but stops short of the
    /// bleed, and on a cover sheet the barcode area, the spine's text and the colours at the folds.
    static func renderedChecks(_ pdf: URL, boxes: [Int: PageBoxes], profile: PrintProfile, name: String,
                               sheet: SheetGeometry?, bindsOnRight: Bool = false) throws -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        guard sheet != nil || profile.maxInk != nil || profile.isCMYK || profile.hasBleed else { return [] }
        let dpi = sheet == nil ? interiorDPI : coverDPI
        try CMYKRaster.pages(pdf, count: boxes.keys.max() ?? 1, dpi: dpi, withoutText: sheet != nil || profile.isCMYK) { page, full, bare in
            guard let b = boxes[page], b.media.count == 4 else { return }
            let frame = RasterFrame(media: b.media, dpi: Double(dpi))
            if let limit = profile.maxInk, let f = totalInk(full, frame: frame, limit: limit, page: page, profile: profile, name: name) {
                out.append(f)
            }
            if profile.isCMYK, let bare, let f = richBlackText(full, bare, page: page, profile: profile, name: name) { out.append(f) }
            if b.trim.count == 4 {
                out += stopsShortOfBleed(full, frame: frame, trim: b.trim, page: page, sides: bleedWanted(page: page, profile: profile, sheet: sheet, bindsOnRight: bindsOnRight),
                                         profile: profile, name: name)
            }
            if let sheet, page == 1 {
                out += sheet.checks(full, bare, frame: frame, profile: profile, name: name)
            }
        }
        return out
    }

    /// Where pixels fall for points of the page (PDF coordinates, origin bottom left).
    struct RasterFrame {
        var media: [Double]
        var dpi: Double
        var scale: Double { dpi / 72 }
        func x(_ pt: Double) -> Int { Int(((pt - media[0]) * scale).rounded(.down)) }
        func y(_ pt: Double) -> Int { Int(((media[3] - pt) * scale).rounded(.down)) }
        func points(_ px: Int) -> Double { Double(px) / scale }
    }

    /// The highest C+M+Y+K of any pixel, against the profile's limit, with where it is.
    static func totalInk(_ r: CMYKRaster, frame: RasterFrame, limit: Double, page: Int, profile: PrintProfile, name: String) -> PreflightFinding? {
        var best = 0, at = (0, 0)
        for y in 0..<r.height {
            for x in 0..<r.width {
                let t = r.total(x, y)
                if t > best { best = t; at = (x, y) }
            }
        }
        let percent = Double(best) * 100 / 255
        // A percent of slack: each ink is rounded to 8 bits.
        guard percent > limit + 1 else { return nil }
        let inks = r.inks(at.0, at.1)
        return PreflightFinding(.error, .totalInk, page: page, file: name, String(format:
            "total ink reaches %.0f %% (C %.0f M %.0f Y %.0f K %.0f) at %.2f in from the page's left edge and %.2f in from its top; %@ takes at most %.0f %%: convert to CMYK with a profile limited to %.0f %% of ink, or lighten the darkest colours",
            percent, Double(inks.c) / 2.55, Double(inks.m) / 2.55, Double(inks.y) / 2.55, Double(inks.k) / 2.55,
            frame.points(at.0) / 72, frame.points(at.1) / 72, profile.name, limit, limit))
    }

    /// Text that prints as black but in all four inks: its pixels (where the page with and without
    /// its text differ) with 50 % black or more, at least 10 % of each of the other three, and
    /// those three within 20 % of each other. A dark colour with one ink well below the others (a
    /// navy, a deep brown) is a colour the designer chose, printed as such; the conversion sets
    /// only near-neutral darks in black ink (`BlackText.Rule`), and this is what it leaves.
    static func richBlackText(_ full: CMYKRaster, _ bare: CMYKRaster, page: Int, profile: PrintProfile, name: String) -> PreflightFinding? {
        var count = 0
        var colours: [UInt32: Int] = [:]
        for y in 0..<full.height {
            for x in 0..<full.width where !full.same(x, y, as: bare) {
                let i = full.inks(x, y)
                guard i.k >= 128, min(i.c, i.m, i.y) >= 26, max(i.c, i.m, i.y) - min(i.c, i.m, i.y) <= 51 else { continue }
                count += 1
                colours[UInt32(i.c) << 24 | UInt32(i.m) << 16 | UInt32(i.y) << 8 | UInt32(i.k), default: 0] += 1
            }
        }
        // A few pixels are the edges of coloured text over a dark ground, not black text.
        guard count >= 6, let colour = colours.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) })?.key else { return nil }
        let c = Double(colour >> 24) / 2.55, m = Double(colour >> 16 & 0xFF) / 2.55, y = Double(colour >> 8 & 0xFF) / 2.55
        let k = Double(colour & 0xFF) / 2.55
        return PreflightFinding(.error, .richBlackText, page: page, file: name, String(format:
            "black text printed in four inks, C %.0f M %.0f Y %.0f K %.0f (%.0f %% in all; %d pixels of text at %.0f dpi); %@ wants black text in black ink alone: set it in 100 %% K (DeviceGray 0, or 0 0 0 1 k)",
            c, m, y, k, c + m + y + k, count, full.dpi, profile.name))
    }

    /// The bleed the printer wants beyond each edge of a page's trim: on an interior the outside
    /// edge is the right of a right-hand (odd) page; a cover sheet has the same bleed all round.
    static func bleedWanted(page: Int, profile: PrintProfile, sheet: SheetGeometry?,
                            bindsOnRight: Bool = false) -> [(side: String, points: Double)] {
        if let sheet { return ["left", "right", "top", "bottom"].map { ($0, sheet.bleed) } }
        let b = profile.bleed
        let bindingOnLeft = (page % 2 == 1) != bindsOnRight
        let left = bindingOnLeft ? b.inner.points : b.outer.points
        let right = bindingOnLeft ? b.outer.points : b.inner.points
        return [("left", left), ("right", right), ("top", b.top.points), ("bottom", b.bottom.points)]
    }

    /// Ink that reaches a trim edge with bleed but stops before the edge of the bleed (or the
    /// page, when the page is smaller): a white sliver once the sheet is cut a little outside the
    /// line. Measured just inside the trim and at the last pixel of the bleed.
    static func stopsShortOfBleed(_ r: CMYKRaster, frame: RasterFrame, trim t: [Double], page: Int,
                                  sides: [(side: String, points: Double)], profile: PrintProfile, name: String) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        let m = frame.media
        for (side, wanted) in sides where wanted > 0 {
            // Three pixels inside the trim, and a pixel inside the edge of the bleed the page has:
            // the rows at the very edge of the raster may be only partly on the page, and blank.
            let across = side == "left" || side == "right"
            let inner: Int, outer: Int
            switch side {
            case "left": inner = frame.x(t[0]) + 3; outer = frame.x(max(m[0], t[0] - wanted)) + 1
            case "right": inner = frame.x(t[2]) - 4; outer = frame.x(min(m[2], t[2] + wanted)) - 2
            case "top": inner = frame.y(t[3]) + 3; outer = frame.y(min(m[3], t[3] + wanted)) + 1
            default: inner = frame.y(t[1]) - 4; outer = frame.y(max(m[1], t[1] - wanted)) - 2
            }
            guard abs(outer - inner) >= 4 else { continue }
            let first = across ? frame.y(t[3]) + 2 : frame.x(t[0]) + 2
            let last = across ? frame.y(t[1]) - 2 : frame.x(t[2]) - 2
            guard first < last else { continue }
            var short = 0
            for a in first..<last {
                let (ix, iy, ox, oy) = across ? (inner, a, outer, a) : (a, inner, a, outer)
                guard r.contains(ix, iy), r.contains(ox, oy) else { continue }
                if r.inked(ix, iy), !r.inked(ox, oy) { short += 1 }
            }
            let inches = Double(short) / r.dpi
            // A quarter of an inch: less is a rule or the end of a line, not a background.
            guard inches >= 0.25 else { continue }
            out.append(PreflightFinding(.error, .stopsAtTrim, page: page, file: name, String(format:
                "ink reaches the %@ trim edge but stops short of the bleed along %.1f in of it (blank paper %.3f in beyond the TrimBox); %@ cuts within the bleed: extend the background or picture %.3f in past the trim",
                side, inches, wanted / 72, profile.name, wanted / 72)))
        }
        return out
    }
}
