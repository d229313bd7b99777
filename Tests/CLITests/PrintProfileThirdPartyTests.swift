import Testing
import Foundation
import BookConfig
import BookTestSupport
import BookRenderKit

/// Both sample books exported for each printer, interior and cover, and checked with readers that
/// are not ours (poppler, Ghostscript, qpdf) against the printers' published numbers, not against
/// our profiles' copies of them.
///
/// The samples are shorter than the printers' minimum page counts (and the storybook keeps one page
/// without its picture), so they are exported with `--force`; `forcedOnlyPastKnownErrors` checks that nothing
/// else was forced past.
@Suite struct PrintProfileThirdPartyTests {
    static let printers = ["kdp", "lulu", "ingramspark"]
    static let samples = ["storybook", "memoir"]
    static let cases: [(String, String)] = samples.flatMap { s in printers.map { (s, $0) } }

    static let interiorSafety = PrinterRules.interiorSafety
    /// On a cover: KDP's cover guidelines keep text 0.125 in inside the trim; Lulu and IngramSpark are held to 0.25 in.
    static let coverSafety: [String: Double] = ["kdp": 0.125, "lulu": 0.25, "ingramspark": 0.25]
    /// Spine text clearance from each fold (KDP cover guidelines; the binders' variance is 1/16 in).
    static let foldClearance = 0.0625
    /// Errors the samples are known to have, which --force writes past.
    static let knownErrors: Set<String> = ["pageCount", "placeholder"]
    /// The storybook's 8.25 × 11 in (the 3:4 default) is not a trim Lulu makes.
    static func knownErrors(_ sample: String, _ printer: String) -> Set<String> {
        sample == "storybook" && printer == "lulu" ? knownErrors.union(["trimSize"]) : knownErrors
    }
    static let trims: [String: (width: Double, height: Double)] = ["storybook": (8.25, 11), "memoir": (6, 9)]
    static let dpi = 100

    enum Part: String, Sendable { case interior, cover }

    func profile(_ name: String) throws -> PrintProfile { try PrintProfile.load(named: name, from: Repository.resources.profiles) }

    // MARK: the exports, made once per (sample, printer, part) and shared by every check

    final class Exports: @unchecked Sendable {
        static let shared = Exports()
        private let lock = NSLock()
        private var done: [String: Result<(URL, String), ToolError>] = [:]
        private var folder: URL?

        /// The exports are shared by the whole run, so they are removed when the process ends.
        private init() {
            atexit { Exports.shared.removeFolder() }
        }

        private func removeFolder() {
            lock.lock(); defer { lock.unlock() }
            if let folder { try? FileManager.default.removeItem(at: folder) }
        }

        func pdf(_ sample: String, _ printer: String, _ part: Part) throws -> (url: URL, stderr: String) {
            lock.lock(); defer { lock.unlock() }
            let key = "\(sample)-\(printer)-\(part.rawValue)"
            if let r = done[key] { return try r.get() }
            if folder == nil { folder = try temporaryDirectory("third-party") }
            let out = folder!.appendingPathComponent("\(key).pdf")
            let book = Repository.samples.appendingPathComponent("\(sample)/book.json").path
            let r = try run(try Repository.binary.path, [part == .cover ? "cover" : "export", book, "-o", out.path, "--profile", printer, "--force"])
            let result: Result<(URL, String), ToolError> = r.status == 0
                ? .success((out, r.stderr))
                : .failure(ToolError("\(part.rawValue == "cover" ? "cover" : "export") \(sample) --profile \(printer) --force exited \(r.status): \(r.stderr)"))
            done[key] = result
            return try result.get()
        }
    }

    func exported(_ sample: String, _ printer: String, _ part: Part) throws -> URL {
        try Exports.shared.pdf(sample, printer, part).url
    }

    // MARK: checks

    /// --force writes past the samples' page count and missing picture (and the storybook's trim for
    /// Lulu), and past nothing else.
    @Test(arguments: cases)
    func forcedOnlyPastKnownErrors(_ sample: String, _ printer: String) throws {
        let book = Repository.samples.appendingPathComponent("\(sample)/book.json").path
        let r = try run(try Repository.binary.path, ["preflight", book, "--profile", printer, "--json"])
        let report = try JSONDecoder().decode(PreflightReport.self, from: r.stdoutData)
        let known = Self.knownErrors(sample, printer)
        let other = report.findings.filter { $0.severity == .error && !known.contains($0.kind) }
        #expect(other.isEmpty, "\(sample) for \(printer): errors besides \(known.sorted()): \(other.map(\.description))")
        for part in [Part.interior, .cover] {
            let stderr = try Exports.shared.pdf(sample, printer, part).stderr
            let forced = stderr.split(separator: "\n").filter { $0.hasPrefix("preflight error: ") }
                .filter { line in !known.contains { line.hasPrefix("preflight error: \($0):") } }
            #expect(forced.isEmpty, "\(sample) \(part.rawValue) for \(printer): --force wrote past \(forced)")
        }
    }

    /// `pdfinfo -box`: the page is the trim plus the printer's bleed on the sides it wants it, and
    /// the cover is back, spine and front with bleed all round.
    @Test(arguments: cases)
    func boxesAreTheTrimAndThePrintersBleed(_ sample: String, _ printer: String) throws {
        let trim = Self.trims[sample]!
        let bleed = try profile(printer).bleed
        let interior = try PDFReaders.boxes(exported(sample, printer, .interior))
        #expect(interior.count >= 14, "\(sample) \(printer): \(interior.count) pages")
        for (i, b) in interior.enumerated() {
            let n = i + 1, at = "\(sample) for \(printer), page \(n)"
            let m = try #require(b["MediaBox"], "\(at): no MediaBox"), t = try #require(b["TrimBox"], "\(at): no TrimBox")
            let bl = try #require(b["BleedBox"], "\(at): no BleedBox")
            #expect(abs(t.width - trim.width * 72) < 0.01 && abs(t.height - trim.height * 72) < 0.01, "\(at): TrimBox \(t), expected \(trim.width) × \(trim.height) in")
            #expect(abs(bl.llx - m.llx) < 0.01 && abs(bl.lly - m.lly) < 0.01 && abs(bl.urx - m.urx) < 0.01 && abs(bl.ury - m.ury) < 0.01,
                    "\(at): BleedBox \(bl) is not the MediaBox \(m) (nothing but the bleed outside the trim)")
            // Odd pages are right-hand pages: their outside edge is the right.
            let (left, right) = n % 2 == 0 ? (bleed.outer.points, bleed.inner.points) : (bleed.inner.points, bleed.outer.points)
            #expect(abs(t.llx - bl.llx - left) < 0.01 && abs(bl.urx - t.urx - right) < 0.01 &&
                    abs(t.lly - bl.lly - bleed.bottom.points) < 0.01 && abs(bl.ury - t.ury - bleed.top.points) < 0.01,
                    "\(at): BleedBox \(bl) around TrimBox \(t); expected bleed left \(left) right \(right) bottom \(bleed.bottom.points) top \(bleed.top.points) pt")
        }
        if printer == "kdp" {
            // KDP: no bleed on the gutter side.
            #expect(bleed.inner.points == 0 && bleed.outer.points == 9 && bleed.top.points == 9 && bleed.bottom.points == 9)
        } else {
            #expect([bleed.inner, bleed.outer, bleed.top, bleed.bottom].allSatisfy { $0.points == 9 }, "\(printer): 0.125 in bleed on every side")
        }

        let cover = try PDFReaders.boxes(exported(sample, printer, .cover))
        try #require(cover.count == 1, "\(sample) cover for \(printer): \(cover.count) pages")
        let c = cover[0]
        let t = try #require(c["TrimBox"]), bl = try #require(c["BleedBox"]), m = try #require(c["MediaBox"])
        let spine = t.width - 2 * trim.width * 72
        #expect(spine > 0 && spine < 72, "\(sample) cover for \(printer): TrimBox \(t) leaves a spine of \(spine) pt")
        #expect(abs(t.height - trim.height * 72) < 0.01, "\(sample) cover for \(printer): TrimBox \(t) height")
        for (edge, gap) in [("left", t.llx - bl.llx), ("bottom", t.lly - bl.lly), ("right", bl.urx - t.urx), ("top", bl.ury - t.ury)] {
            #expect(abs(gap - 9) < 0.01, "\(sample) cover for \(printer): bleed \(gap) pt on the \(edge), expected 0.125 in")
        }
        #expect(abs(bl.width - m.width) < 0.01 && abs(bl.height - m.height) < 0.01, "\(sample) cover for \(printer): BleedBox \(bl), MediaBox \(m)")
    }

    /// Every glyph's ink, measured by Ghostscript drawing the text alone, stays inside the printer's
    /// safe zone; `pdftotext -bbox` names the words near the edge when it does not. On a cover,
    /// nothing is printed within the binder's variance of a spine fold.
    @Test(arguments: cases)
    func textInkStaysInsideThePrintersSafeZone(_ sample: String, _ printer: String) throws {
        for part in [Part.interior, .cover] {
            let pdf = try exported(sample, printer, part)
            let safety = (part == .interior ? Self.interiorSafety : Self.coverSafety)[printer]!
            let (problems, inked) = try PrinterRules.textOutsideSafeZone(pdf, safety: safety, dpi: Self.dpi)
            #expect(problems.isEmpty, "\(sample) \(part.rawValue) for \(printer): \(problems)")
            #expect(inked > 0, "\(sample) \(part.rawValue) for \(printer): Ghostscript drew no text at all")
        }
        let cover = try exported(sample, printer, .cover)
        let b = try #require(try PDFReaders.boxes(cover).first)
        let raster = try #require(try PrintRaster.textOnly(cover, dpi: Self.dpi, cmyk: false).first)
        let m = try #require(b["MediaBox"]), t = try #require(b["TrimBox"])
        let spine = t.width - 2 * Self.trims[sample]!.width * 72
        for fold in [t.llx - m.llx + (t.width - spine) / 2, t.llx - m.llx + (t.width + spine) / 2] {
            let hit = raster.inkInside(x0: fold - Self.foldClearance * 72, y0: 0, x1: fold + Self.foldClearance * 72, y1: m.height)
            #expect(hit == 0, "\(sample) cover for \(printer): \(hit) text pixels within 1/16 in of the fold at x \(fold) pt")
        }
    }

    /// IngramSpark: no pixel over 240 % total ink, on the interior and the cover (Ghostscript's CMYK
    /// render; `inkcov` would give only each page's average).
    @Test(arguments: samples)
    func ingramSparkTotalInkStaysUnder240Percent(_ sample: String) throws {
        for part in [Part.interior, .cover] {
            let coverage = try PDFReaders.inkCoverage(exported(sample, "ingramspark", part), dpi: 36)
            #expect(!coverage.isEmpty)
            for (i, c) in coverage.enumerated() {
                #expect(c.maximum <= 240, "\(sample) \(part.rawValue) for ingramspark, page \(i + 1): a pixel carries \(String(format: "%.1f", c.maximum)) % ink, over IngramSpark's 240 %")
            }
        }
    }

    /// IngramSpark: black text is 100 % K, not a four-colour build. Drawn as text alone in CMYK,
    /// a pixel with more than half black ink carries next to no cyan, magenta or yellow.
    @Test(arguments: samples)
    func ingramSparkBlackTextIsBlackInkOnly(_ sample: String) throws {
        let rasters = try PrintRaster.textOnly(exported(sample, "ingramspark", .interior), dpi: Self.dpi, cmyk: true)
        var blackOnly = 0
        for (i, r) in rasters.enumerated() {
            var rich = 0, worst: (Int, Int, Int, Int)?
            for y in 0..<r.height {
                for x in 0..<r.width where r[x: x, y: y, channel: 3] >= 128 {
                    let c = Int(r[x: x, y: y, channel: 0]), m = Int(r[x: x, y: y, channel: 1]), yy = Int(r[x: x, y: y, channel: 2])
                    if max(c, m, yy) > 13 { rich += 1; if worst == nil { worst = (c, m, yy, Int(r[x: x, y: y, channel: 3])) } } else { blackOnly += 1 }
                }
            }
            if let w = worst {
                Issue.record("\(sample) for ingramspark, page \(i + 1): \(rich) dark text pixels are a four-colour black, e.g. C \(w.0 * 100 / 255) M \(w.1 * 100 / 255) Y \(w.2 * 100 / 255) K \(w.3 * 100 / 255) %")
            }
        }
        #expect(blackOnly > 0, "\(sample) for ingramspark: no black-only text pixel anywhere")
    }

    /// `pdfimages -list`: every picture at or above the printer's resolution where it is printed,
    /// and none in RGB in the PDF/X file.
    @Test(arguments: cases)
    func picturesAreAtPrintResolutionAndCMYKForPDFX(_ sample: String, _ printer: String) throws {
        let floor = try profile(printer).minImageDPI
        for part in [Part.interior, .cover] {
            let pdf = try exported(sample, printer, part)
            let list = try run("pdfimages", ["-list", pdf.path])
            try #require(list.status == 0, "pdfimages: \(list.stderr)")
            var images = 0
            for line in list.stdout.split(separator: "\n").dropFirst(2) {
                let c = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard c.count >= 14, c[2] == "image" else { continue }
                images += 1
                let at = "\(sample) \(part.rawValue) for \(printer), page \(c[0]): \(c[3]) × \(c[4]) \(c[5]) image"
                if let x = Double(c[12]), let y = Double(c[13]) {
                    #expect(min(x, y) >= floor, "\(at) prints at \(c[12]) × \(c[13]) ppi, below \(printer)'s \(Int(floor))")
                } else {
                    Issue.record("\(at): pdfimages gives no resolution: \(line)")
                }
                if printer == "ingramspark" {
                    #expect(!(c[5] == "rgb" || (c[5] == "icc" && c[6] == "3")), "\(at): RGB in a PDF/X-1a file")
                }
            }
            #expect(images > 0, "\(sample) \(part.rawValue) for \(printer): no pictures at all")
        }
    }

    /// qpdf's JSON: no transparency group or soft mask left for a printer to flatten, and the PDF/X
    /// identification and output intent on both IngramSpark files.
    @Test(arguments: cases)
    func noTransparencyAndPDFXKeysWhereAsked(_ sample: String, _ printer: String) throws {
        for part in [Part.interior, .cover] {
            let json = try PDFReaders.QPDFJSON(exported(sample, printer, part))
            var found: [String] = []
            for (ref, entry) in json.objects {
                func walk(_ v: Any) {
                    if let d = v as? [String: Any] {
                        if d["/Group"] != nil { found.append("\(ref) /Group") }
                        if let s = d["/SMask"], (s as? String) != "/None" { found.append("\(ref) /SMask") }
                        d.values.forEach(walk)
                    } else if let a = v as? [Any] { a.forEach(walk) }
                }
                walk(entry)
            }
            #expect(found.isEmpty, "\(sample) \(part.rawValue) for \(printer): transparency left in \(found.count) places: \(found.sorted().prefix(8))")
            if printer == "ingramspark" {
                #expect(json.info["/GTS_PDFXVersion"] != nil, "\(sample) \(part.rawValue) for ingramspark: no /GTS_PDFXVersion in the info dictionary")
                let intents = json.catalog["/OutputIntents"]
                #expect((intents as? [Any])?.isEmpty == false || (intents as? String)?.hasSuffix(" R") == true, "\(sample) \(part.rawValue) for ingramspark: no /OutputIntents in the catalog")
            }
        }
    }

    /// Pictures keep their compression: for a CMYK printer every picture is a CMYK JPEG in the
    /// PDF (not pixels re-distilled without loss), and the book's JPEGs are JPEGs for every
    /// printer. Colour emoji drawn as small opaque patches (600 ppi) are not pictures.
    @Test(arguments: cases)
    func picturesAreJPEGsInThePDF(_ sample: String, _ printer: String) throws {
        for part in [Part.interior, .cover] {
            let pdf = try exported(sample, printer, part)
            let rows = try run("pdfimages", ["-list", pdf.path]).stdout.split(separator: "\n").dropFirst(2)
                .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
                .filter { $0.count >= 14 && $0[2] == "image" && $0[12] != "600" }
            #expect(rows.contains { $0[8] == "jpeg" }, "\(sample) \(part.rawValue) for \(printer): no JPEG at all")
            // The memoir's pictures are all JPEGs, one of them CMYK (which cannot pass through
            // as it is): every one is a JPEG in the PDF, for every printer.
            if sample == "memoir" {
                for row in rows {
                    #expect(row[8] == "jpeg", "memoir \(part.rawValue) for \(printer), page \(row[0]): \(row[3]) × \(row[4]) \(row[5]) \(row[8]) image")
                }
            }
            if printer == "ingramspark" {
                for row in rows {
                    #expect(row[8] == "jpeg" && (row[5] == "cmyk" || row[5] == "gray"),
                            "\(sample) \(part.rawValue) for ingramspark, page \(row[0]): \(row[3]) × \(row[4]) \(row[5]) \(row[8]) image")
                }
            }
        }
    }

    /// The page colour is the paper's: on an interior page without a picture, Ghostscript's CMYK
    /// separation shows no ink at all in the top corners inside the trim (the bottom ones may lie
    /// in a picture page's text band, as on the storybook's page whose picture is missing).
    @Test(arguments: cases)
    func thePageColourIsNotPrinted(_ sample: String, _ printer: String) throws {
        let pdf = try exported(sample, printer, .interior)
        let pictured = Set(try run("pdfimages", ["-list", pdf.path]).stdout.split(separator: "\n").dropFirst(2)
            .compactMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).first ?? "") })
        let boxes = try PDFReaders.boxes(pdf)
        let rasters = try PrintRaster.render(pdf, dpi: 20, cmyk: true)
        try #require(rasters.count == boxes.count)
        var checked = 0
        for (i, (raster, box)) in zip(rasters, boxes).enumerated() where !pictured.contains(i + 1) {
            guard let media = box["MediaBox"], let trim = box["TrimBox"] else { continue }
            let inset = 0.15 * 72
            for (x, y) in [(trim.llx + inset, media.ury - trim.ury + inset), (trim.urx - inset, media.ury - trim.ury + inset)] {
                let px = Int(x / 72 * raster.dpi), py = Int(y / 72 * raster.dpi)
                let ink = (0..<4).map { Int(raster[x: px, y: py, channel: $0]) }
                #expect(ink == [0, 0, 0, 0], "\(sample) for \(printer), page \(i + 1): ink \(ink) at (\(Int(x)), \(Int(y))) pt, where only paper should be")
            }
            checked += 1
        }
        #expect(checked > 0, "\(sample) for \(printer): no page without a picture to look at")
    }
}
