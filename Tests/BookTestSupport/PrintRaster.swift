import Foundation
import BookRender

/// Pages rendered by Ghostscript into plain bytes, for measuring ink with a rasterizer that is not ours.
public struct PrintRaster: Sendable {
    public var width: Int
    public var height: Int
    /// Bytes per pixel: 1 for grey (0 black, 255 white), 4 for CMYK (0 no ink, 255 full).
    public var channels: Int
    public var pixels: [UInt8]
    public var dpi: Double

    public subscript(x x: Int, y y: Int, channel channel: Int) -> UInt8 { pixels[(y * width + x) * channels + channel] }

    /// Every page of `pdf`, text only (`-dFILTERIMAGE -dFILTERVECTOR` leave out pictures and
    /// vector fills), as grey (`pgmraw`) or CMYK (`pam`), the MediaBox at `dpi`.
    public static func textOnly(_ pdf: URL, dpi: Int, cmyk: Bool) throws -> [PrintRaster] {
        try render(pdf, dpi: dpi, cmyk: cmyk, extra: ["-dFILTERIMAGE", "-dFILTERVECTOR"])
    }

    public static func render(_ pdf: URL, dpi: Int, cmyk: Bool, extra: [String] = []) throws -> [PrintRaster] {
        let dir = try temporaryDirectory("raster")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ext = cmyk ? "pam" : "pgm"
        let out = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=\(cmyk ? "pam" : "pgmraw")", "-r\(dpi)"]
                                + extra + ["-o", dir.appendingPathComponent("p-%04d.\(ext)").path, pdf.path])
        guard out.status == 0 else { throw ToolError("gs \(ext) of \(pdf.lastPathComponent) failed: \(out.stdout)\(out.stderr)") }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(ext) }.sorted()
        return try files.map { try parse(Data(contentsOf: dir.appendingPathComponent($0)), name: $0, dpi: Double(dpi)) }
    }

    /// A binary PGM (P5) or PAM (P7) file, as Ghostscript writes them (comment lines allowed).
    static func parse(_ data: Data, name: String, dpi: Double) throws -> PrintRaster {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("P7\n".utf8)) {
            guard let end = data.range(of: Data("ENDHDR\n".utf8)) else { throw ToolError("\(name): PAM without ENDHDR") }
            var fields: [String: Int] = [:]
            for line in String(decoding: data[..<end.lowerBound], as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2, let v = Int(parts[1]) { fields[String(parts[0])] = v }
            }
            guard let w = fields["WIDTH"], let h = fields["HEIGHT"], fields["DEPTH"] == 4, fields["MAXVAL"] == 255 else {
                throw ToolError("\(name): not an 8-bit CMYK PAM")
            }
            return PrintRaster(width: w, height: h, channels: 4, pixels: Array(bytes[end.upperBound...]), dpi: dpi)
        }
        guard bytes.starts(with: Array("P5".utf8)) else { throw ToolError("\(name): neither PGM nor PAM") }
        var numbers: [Int] = [], i = 2
        while numbers.count < 3 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == UInt8(ascii: "#") {
                if bytes[i] == UInt8(ascii: "#") { while bytes[i] != 0x0A { i += 1 } }
                i += 1
            }
            var v = 0
            while bytes[i] >= 0x30 && bytes[i] <= 0x39 { v = v * 10 + Int(bytes[i] - 0x30); i += 1 }
            numbers.append(v)
        }
        i += 1
        guard numbers[2] == 255 else { throw ToolError("\(name): PGM with maxval \(numbers[2])") }
        return PrintRaster(width: numbers[0], height: numbers[1], channels: 1, pixels: Array(bytes[i...]), dpi: dpi)
    }

    /// The inked pixels' bounding box in points, origin at the media box's top left; nil on a blank page.
    /// A grey pixel is ink when darker than mid-grey; a CMYK pixel when any ink passes half.
    public func inkBounds() -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where isInk(x, y) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        let k = 72 / dpi
        return (Double(minX) * k, Double(minY) * k, Double(maxX + 1) * k, Double(maxY + 1) * k)
    }

    /// Inked pixels whose square lies wholly inside the rectangle (points, origin top left of the media box).
    public func inkInside(x0: Double, y0: Double, x1: Double, y1: Double) -> Int {
        let k = dpi / 72
        let px0 = max(0, Int((x0 * k).rounded(.up))), px1 = min(width, Int((x1 * k).rounded(.down)))
        let py0 = max(0, Int((y0 * k).rounded(.up))), py1 = min(height, Int((y1 * k).rounded(.down)))
        guard px0 < px1, py0 < py1 else { return 0 }
        var n = 0
        for y in py0..<py1 { for x in px0..<px1 where isInk(x, y) { n += 1 } }
        return n
    }

    func isInk(_ x: Int, _ y: Int) -> Bool {
        if channels == 1 { return self[x: x, y: y, channel: 0] < 128 }
        return (0..<4).contains { self[x: x, y: y, channel: $0] >= 128 }
    }
}

/// Words of a PDF as `pdftotext -bbox` reports them: page (1-based), text and font box in points
/// from the media box's top left.
public struct PDFWord: Sendable, CustomStringConvertible {
    public var page: Int
    public var text: String
    public var xMin: Double, yMin: Double, xMax: Double, yMax: Double
    public var description: String { String(format: "\"%@\" on page %d at x %.1f–%.1f, y %.1f–%.1f pt", text, page, xMin, xMax, yMin, yMax) }

    public static func all(_ pdf: URL) throws -> [PDFWord] {
        let out = try run("pdftotext", ["-bbox", pdf.path, "-"])
        guard out.status == 0 else { throw ToolError("pdftotext -bbox failed: \(out.stderr)") }
        var words: [PDFWord] = [], page = 0
        for line in out.stdout.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<word "), let close = line.firstIndex(of: ">"), let end = line.range(of: "</word>") else { continue }
            func attr(_ name: String) -> Double {
                guard let r = line.range(of: "\(name)=\"") else { return .nan }
                return Double(line[r.upperBound...].prefix { $0 != "\"" }) ?? .nan
            }
            let text = String(line[line.index(after: close)..<end.lowerBound])
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
            words.append(PDFWord(page: page, text: text, xMin: attr("xMin"), yMin: attr("yMin"), xMax: attr("xMax"), yMax: attr("yMax")))
        }
        return words
    }
}

/// The printers' published numbers, kept apart from our profiles so that the tests check the
/// profiles against the printers and not against themselves.
public enum PrinterRules {
    /// Everything printed stays this far inside the trim (inches): KDP's paperback guidelines
    /// (0.375 in top, bottom and outside with bleed; the gutter is at least that up to 150 pages),
    /// Lulu's book creation guide and IngramSpark's file creation guide (0.5 in).
    public static let interiorSafety: [String: Double] = ["kdp": 0.375, "lulu": 0.5, "ingramspark": 0.5]

    /// Pages whose text ink (Ghostscript drawing the text alone at `dpi`) reaches outside the trim
    /// less `safety` inches, each described with the words `pdftotext -bbox` finds near the edge;
    /// and how many pages carry any text at all.
    public static func textOutsideSafeZone(_ pdf: URL, safety: Double, dpi: Int = 100) throws -> (problems: [String], inkedPages: Int) {
        let boxes = try PDFReaders.boxes(pdf)
        let rasters = try PrintRaster.textOnly(pdf, dpi: dpi, cmyk: false)
        guard rasters.count == boxes.count else { return (["Ghostscript drew \(rasters.count) pages, pdfinfo lists \(boxes.count)"], 0) }
        let words = try PDFWord.all(pdf)
        let s = safety * 72, slack = 72 / Double(dpi)
        var problems: [String] = [], inked = 0
        for (i, (raster, b)) in zip(rasters, boxes).enumerated() {
            let n = i + 1
            guard let m = b["MediaBox"], let t = b["TrimBox"] else { problems.append("page \(n): no TrimBox"); continue }
            guard let ink = raster.inkBounds() else { continue }
            inked += 1
            // The safe rectangle, from the media box's top left as the rasters and pdftotext measure.
            let x0 = t.llx - m.llx + s, y0 = m.ury - t.ury + s, x1 = t.urx - m.llx - s, y1 = m.ury - t.lly - s
            if ink.minX < x0 - slack || ink.minY < y0 - slack || ink.maxX > x1 + slack || ink.maxY > y1 + slack {
                let near = words.filter { $0.page == n && ($0.xMin < x0 || $0.yMin < y0 || $0.xMax > x1 || $0.yMax > y1) }
                let gaps = String(format: "left %.3f, top %.3f, right %.3f, bottom %.3f in", (ink.minX - x0 + s) / 72, (ink.minY - y0 + s) / 72,
                                  (x1 + s - ink.maxX) / 72, (y1 + s - ink.maxY) / 72)
                problems.append("page \(n): text ink from the trim: \(gaps), under \(safety) in; words near the edge: \(near.map(\.description))")
            }
        }
        return (problems, inked)
    }
}
