import Foundation
import BookConfig

/// What a cover PDF wraps: the interior's page count and paper (which make the spine) and, when
/// known, its trim.
public struct CoverSheet: Sendable, Equatable {
    public var interiorPages: Int
    public var paper: String
    /// The interior's trim in points: from the interior PDF's TrimBox, or given.
    public var interiorTrim: PrintProfile.TrimName?
    /// How the book is bound, which sets the page counts the printer takes.
    public var binding: CoverBinding

    public init(interiorPages: Int, paper: String = "white", interiorTrim: PrintProfile.TrimName? = nil,
                binding: CoverBinding = .paperback) {
        self.interiorPages = interiorPages; self.paper = paper; self.interiorTrim = interiorTrim; self.binding = binding
    }
}

/// Where a cover sheet's parts are, in the PDF's points (origin bottom left): the folds either
/// side of the spine, the barcode area on the back, and what the printer allows on the spine.
struct SheetGeometry {
    var backFold: Double
    var frontFold: Double
    var spineInches: Double
    var pages: Int
    var paper: String
    /// How far the binder may fold from each fold line, each way.
    var variance: Double
    var bleed: Double
    /// Why the spine may carry no text, or nil when it may.
    var noTextBecause: String?
    /// llx, lly, urx, ury.
    var barcode: [Double]
    var trim: [Double]
}

extension PDFPreflight {
    /// An interior PDF's page count and trim (its first page's TrimBox, else its MediaBox), for
    /// checking the cover that wraps it.
    public static func interiorSize(_ pdf: URL) throws -> (pages: Int, trim: PrintProfile.TrimName) {
        let info = try ReaderTool.run("pdfinfo", ["-box", "-f", "1", "-l", "1", pdf.path])
        guard let pages = info.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") })
                .flatMap({ Int($0.split(separator: " ").last ?? "") }),
              let t = PageBoxes.parse(info)[1]?.trim, t.count == 4 else {
            throw RenderError("\(pdf.path): not a PDF poppler can read")
        }
        return (pages, PrintProfile.TrimName(width: t[2] - t[0], height: t[3] - t[1]))
    }

    /// The printers' barcode box, 2 × 1.2 in, at the bottom right of the back inside the safety
    /// distance (the same box `bookrender cover` keeps clear).
    static let barcodeSize = (width: 144.0, height: 86.4)

    /// The sheet's size against the spine the printer's formula gives for `cover`, and the
    /// geometry the rendered checks measure against.
    static func coverSheet(_ cover: CoverSheet, boxes: [Int: PageBoxes], pages: Int, profile: PrintProfile,
                           name: String) throws -> ([PreflightFinding], SheetGeometry?) {
        var out: [PreflightFinding] = []
        if pages != 1 {
            out.append(PreflightFinding(.error, .coverSize, file: name,
                "\(pages) pages; a cover is one sheet (back, spine and front side by side): send the cover as a one-page PDF"))
        }
        guard let rule = profile.spine else {
            throw RenderError("profile \(profile.name) has no spine rule, so a cover cannot be checked against it; use a printer's profile such as kdp, lulu or ingramspark")
        }
        let spineInches = try profile.spineWidth(pages: cover.interiorPages, paper: cover.paper)
        let spine = spineInches * 72
        guard let t = boxes[1]?.trim, t.count == 4 else { return (out, nil) }
        let width = t[2] - t[0], height = t[3] - t[1]
        let sheet = PrintProfile.TrimName(width: width, height: height)
        let made = String(format: "%.3f in of spine for %d pages of %@ paper", spineInches, cover.interiorPages, cover.paper)
        out += wrappedInterior(cover, profile: profile, name: name)
        let panel: Double
        if let trim = cover.interiorTrim {
            panel = trim.width
            let wanted = PrintProfile.TrimName(width: 2 * trim.width + spine, height: trim.height)
            // A fiftieth of an inch: the printers' calculators give the spine to the thousandth.
            if abs(wanted.width - width) > 1.44 || abs(wanted.height - height) > 1.44 {
                out.append(PreflightFinding(.error, .coverSize, page: 1, file: name, String(format:
                    "the sheet's TrimBox is %@; a %@ cover for an interior of %@ is %@ (two %.2f in panels and %@); make the sheet that size, or check --pages and --paper",
                    sheet.spoken, profile.name, trim.spoken, wanted.spoken, trim.width / 72, made)))
            }
        } else {
            panel = (width - spine) / 2
            let implied = PrintProfile.TrimName(width: panel, height: height)
            if let trims = profile.trims, !trims.sizes.contains(where: {
                abs($0.width - panel) <= PrintProfile.trimTolerance && abs($0.height - height) <= PrintProfile.trimTolerance }) {
                out.append(PreflightFinding(.error, .coverSize, page: 1, file: name, String(format:
                    "the sheet's TrimBox is %@; less %@ that leaves two panels of %@, which is no trim %@ lists: make the sheet twice the interior's trim width plus the spine, check --pages and --paper, or give the interior's trim (--trim) or the interior (--interior)",
                    sheet.spoken, made, implied.spoken, profile.name)))
            }
        }
        var because: String?
        if !rule.carriesText(pages: cover.interiorPages, inches: spineInches) {
            if let min = rule.textMinPages, cover.interiorPages < min {
                because = "\(profile.name) allows spine text from \(min) pages; this interior has \(cover.interiorPages)"
            } else if let min = rule.textMinInches, spineInches < min {
                because = String(format: "%@ allows spine text on spines of %.2f in or more; this one is %.3f in", profile.name, min, spineInches)
            } else {
                because = String(format: "a %.3f in spine leaves no room between the two %.4f in fold clearances", spineInches, rule.foldVariance)
            }
        }
        let safety = max(profile.safety.points, 18)
        let backFold = t[0] + panel
        let bleed = max(9, [profile.bleed.top, profile.bleed.bottom, profile.bleed.inner, profile.bleed.outer].map(\.points).max() ?? 0)
        let barcode = [backFold - safety - barcodeSize.width, t[1] + safety, backFold - safety, t[1] + safety + barcodeSize.height]
        return (out, SheetGeometry(backFold: backFold, frontFold: backFold + spine, spineInches: spineInches, pages: cover.interiorPages,
                                   paper: cover.paper, variance: rule.foldVariance * 72, bleed: bleed, noTextBecause: because,
                                   barcode: barcode, trim: t))
    }
}

extension PDFPreflight {
    /// The sheet itself may be right for an interior the printer will not print (too few or too
    /// many pages, a trim it does not make): said as warnings, since the interior's own preflight
    /// refuses it and a cover is often made before the book is finished.
    public static func wrappedInterior(_ cover: CoverSheet, profile: PrintProfile, name: String?) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        let range = (try? profile.interiorPages(bound: cover.binding)) ?? (min: profile.pages.min, max: profile.pages.max)
        if let min = range.min, cover.interiorPages < min {
            out.append(PreflightFinding(.warning, .pageCount, file: name,
                "the interior this cover wraps has \(cover.interiorPages) pages; \(profile.name) prints at least \(min), so it will refuse the book until it has more"))
        }
        if let max = range.max, cover.interiorPages > max {
            out.append(PreflightFinding(.warning, .pageCount, file: name,
                "the interior this cover wraps has \(cover.interiorPages) pages; \(profile.name) prints at most \(max)"))
        }
        if let trim = cover.interiorTrim, !profile.accepts(trim: trim.width, trim.height) {
            out.append(PreflightFinding(.warning, .trimSize, file: name,
                "the interior this cover wraps is \(trim.spoken), which is no trim \(profile.name) lists; set format.trim to one it prints"))
        }
        return out
    }
}

extension SheetGeometry {
    /// The barcode area, the spine's text and the colours at the folds, in the sheet drawn with
    /// (`full`) and without (`bare`) its text.
    func checks(_ full: CMYKRaster, _ bare: CMYKRaster?, frame: PDFPreflight.RasterFrame, profile: PrintProfile, name: String) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        if let f = barcodeArea(full, frame: frame, profile: profile, name: name) { out.append(f) }
        if let bare, let f = spineText(full, bare, frame: frame, profile: profile, name: name) { out.append(f) }
        out += foldColours(full, frame: frame, profile: profile, name: name)
        return out
    }

    /// The printer covers the barcode area with its barcode on a white box: anything drawn there
    /// but one flat colour is lost. The share of its pixels unlike its commonest colour.
    func barcodeArea(_ r: CMYKRaster, frame: PDFPreflight.RasterFrame, profile: PrintProfile, name: String) -> PreflightFinding? {
        let x0 = frame.x(barcode[0]) + 1, x1 = frame.x(barcode[2]) - 1, y0 = frame.y(barcode[3]) + 1, y1 = frame.y(barcode[1]) - 1
        guard x0 < x1, y0 < y1, r.contains(x0, y0), r.contains(x1, y1) else { return nil }
        var counts: [UInt32: Int] = [:]
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = r.inks(x, y)
                counts[UInt32(i.c) << 24 | UInt32(i.m) << 16 | UInt32(i.y) << 8 | UInt32(i.k), default: 0] += 1
            }
        }
        guard let common = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) })?.key else { return nil }
        var unlike = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = r.inks(x, y)
                let d = abs(i.c - Int(common >> 24)) + abs(i.m - Int(common >> 16 & 0xFF)) + abs(i.y - Int(common >> 8 & 0xFF)) + abs(i.k - Int(common & 0xFF))
                if d > 24 { unlike += 1 }
            }
        }
        let share = Double(unlike) / Double((x1 - x0) * (y1 - y0))
        guard share > 0.005 else { return nil }
        return PreflightFinding(.error, .barcodeArea, page: 1, file: name, String(format:
            "the barcode area (2 × 1.2 in at the back's lower right, %.3f in inside the trim: %.2f–%.2f in from the sheet's left trim edge) is not clear: %.0f %% of it differs from its background; %@ prints the barcode there over a white box: move text and pictures out of it",
            (barcode[1] - trim[1]) / 72, (barcode[0] - trim[0]) / 72, (barcode[2] - trim[0]) / 72, share * 100, profile.name))
    }

    /// Text within the spine, or within the binder's variance of a fold: where the sheet with and
    /// without its text differ, between a fold's variance beyond the back fold and beyond the front.
    func spineText(_ full: CMYKRaster, _ bare: CMYKRaster, frame: PDFPreflight.RasterFrame, profile: PrintProfile, name: String) -> PreflightFinding? {
        let x0 = max(0, frame.x(backFold - variance)), x1 = min(full.width - 1, frame.x(frontFold + variance))
        let y0 = max(0, frame.y(trim[3])), y1 = min(full.height - 1, frame.y(trim[1]))
        guard x0 < x1, y0 < y1 else { return nil }
        var minX = Int.max, maxX = -1
        for y in y0...y1 {
            for x in x0...x1 where !full.same(x, y, as: bare) {
                minX = min(minX, x); maxX = max(maxX, x)
            }
        }
        guard maxX >= 0 else { return nil }
        // Ink edges in points; Ghostscript inks a pixel the outline only touches, so two pixels' slack.
        let left = frame.media[0] + frame.points(minX), right = frame.media[0] + frame.points(maxX + 1)
        let slack = 2 * 72 / full.dpi
        let onSpine = right > backFold + slack && left < frontFold - slack
        if onSpine, let because = noTextBecause {
            return PreflightFinding(.error, .spineText, page: 1, file: name, String(format:
                "text on the spine (%.3f in wide for %d pages of %@ paper), %.2f–%.2f in from the sheet's left trim edge; %@: leave the spine blank",
                spineInches, pages, paper, (left - trim[0]) / 72, (right - trim[0]) / 72, because))
        }
        let gaps = [("back", left - backFold, backFold - right), ("front", frontFold - right, left - frontFold)]
        for (fold, inside, outside) in gaps {
            // The nearer of the text's two edges to this fold, on whichever side the text is.
            let gap = inside >= 0 ? inside : outside
            if gap < variance - slack {
                return PreflightFinding(.error, .spineText, page: 1, file: name, String(format:
                    "the spine text's ink comes %.3f in from the %@ fold; %@ folds within %.4f in of the line (foldVarianceInches), so text must keep that far from each fold: move it to the spine's middle or set it smaller",
                    max(0, gap) / 72, fold, profile.name, variance / 72))
            }
        }
        return nil
    }

    /// A change of colour right at a fold shows as a sliver of the wrong colour on the spine or the
    /// panel when the binder folds a little off the line: rows where the colour steps from one flat
    /// colour to another within the variance, over most of the fold's height.
    func foldColours(_ r: CMYKRaster, frame: PDFPreflight.RasterFrame, profile: PrintProfile, name: String) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        let y0 = max(0, frame.y(trim[3]) + 2), y1 = min(r.height - 1, frame.y(trim[1]) - 2)
        guard y0 < y1 else { return [] }
        for (fold, x) in [("back", backFold), ("front", frontFold)] {
            let a = frame.x(x - 0.75 * variance), b = frame.x(x - 0.25 * variance), c = frame.x(x + 0.25 * variance), d = frame.x(x + 0.75 * variance)
            guard a >= 0, d < r.width, a < b, c < d else { continue }
            var steps = 0
            for y in y0...y1 where r.distance((a, y), (b, y)) <= 24 && r.distance((c, y), (d, y)) <= 24 && r.distance((b, y), (c, y)) > 60 {
                steps += 1
            }
            let share = Double(steps) / Double(y1 - y0 + 1)
            guard share > 0.5 else { continue }
            out.append(PreflightFinding(.warning, .foldColour, page: 1, file: name, String(format:
                "the colour changes at the %@ fold (%.3f in from the sheet's left trim edge) along %.0f %% of its height; %@ folds within %.4f in of the line: run the spine's colour (or the panel's) %.4f in past the fold",
                fold, (x - trim[0]) / 72, share * 100, profile.name, variance / 72, variance / 72)))
        }
        return out
    }
}
