import Foundation
import CGraphics
import BookRender
import BookTestSupport

/// PDFs for the finishing tests, written by cairo as bookrender's own PDFs are, and the readers
/// that check the results: poppler's `pdfinfo`, qpdf's JSON, Ghostscript's rasterizers.
enum FinishingFixture {
    struct PageSpec {
        var background: (Double, Double, Double)
        /// Draw a half-transparent panel and a soft-masked PNG (PDF/X-1a must flatten them).
        var transparency = false
    }

    /// A PDF of `pages` pages of `width` × `height` points with a full-bleed background, black and
    /// coloured text, a JPEG embedded through cairo's mime data and an opaque PNG.
    static func cairoPDF(at url: URL, width: Double = 450, height: Double = 666, pages: [PageSpec],
                         jpeg: Data, png: URL, alphaPNG: URL? = nil, date: String = "2024-01-01T00:00:00Z") throws {
        guard let surface = cairo_pdf_surface_create(url.path, width, height) else { throw ToolError("cairo refused \(url.path)") }
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "Fixture")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }

        let photo = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 96, 64)!
        defer { cairo_surface_destroy(photo) }
        let copy = malloc(jpeg.count)!
        jpeg.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, jpeg.count) }
        cairo_surface_set_mime_data(photo, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), free, copy)
        let picture = cairo_image_surface_create_from_png(png.path)!
        defer { cairo_surface_destroy(picture) }
        let alpha = alphaPNG.map { cairo_image_surface_create_from_png($0.path)! }
        defer { alpha.map { cairo_surface_destroy($0) } }

        for (i, spec) in pages.enumerated() {
            cairo_set_source_rgb(cr, spec.background.0, spec.background.1, spec.background.2)
            cairo_paint(cr)
            // The deepest colours an RGB file can ask for: pure black and a dark brown.
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_rectangle(cr, 40, 40, 120, 60); cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.2, 0.1, 0.1)
            cairo_rectangle(cr, 170, 40, 120, 60); cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.8, 0.2, 0.13)
            cairo_rectangle(cr, 300, 40, 100, 60); cairo_fill(cr)

            cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, 24)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_move_to(cr, 50, 160)
            cairo_show_text(cr, "Page \(i + 1): the quick brown fox")

            cairo_save(cr)
            cairo_translate(cr, 50, 200)
            cairo_scale(cr, 2, 2)
            cairo_set_source_surface(cr, photo, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)

            cairo_save(cr)
            cairo_translate(cr, 260, 200)
            cairo_set_source_surface(cr, picture, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)

            if spec.transparency {
                cairo_set_source_rgba(cr, 0.1, 0.3, 0.8, 0.5)
                cairo_rectangle(cr, 30, 300, 300, 120); cairo_fill(cr)
                if let alpha {
                    cairo_set_source_surface(cr, alpha, 200, 420)
                    cairo_paint(cr)
                }
            }
            cairo_show_page(cr)
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw ToolError("cairo: \(String(cString: cairo_status_to_string(status)))") }
    }

    /// One page of 540 × 540 pt filled with a 1024 × 1024 PNG of 1M colours of the RGB cube:
    /// 16 tiles of blue (0, 17 … 255), each with every red across and every green down.
    static func rgbCubePDF(at url: URL) throws {
        var ppm = Data("P6\n1024 1024\n255\n".utf8)
        ppm.reserveCapacity(ppm.count + 1024 * 1024 * 3)
        for y in 0..<1024 {
            for x in 0..<1024 {
                ppm.append(contentsOf: [UInt8(x % 256), UInt8(y % 256), UInt8((y / 256 * 4 + x / 256) * 17)])
            }
        }
        let dir = url.deletingLastPathComponent()
        let ppmURL = dir.appendingPathComponent("cube.ppm"), pngURL = dir.appendingPathComponent("cube.png")
        try ppm.write(to: ppmURL)
        let converted = try run("convert", [ppmURL.path, "PNG24:" + pngURL.path])
        guard converted.status == 0 else { throw ToolError("convert: \(converted.stderr)") }
        guard let surface = cairo_pdf_surface_create(url.path, 540, 540) else { throw ToolError("cairo refused \(url.path)") }
        let cr = cairo_create(surface)!
        let image = cairo_image_surface_create_from_png(pngURL.path)!
        cairo_scale(cr, 540.0 / 1024, 540.0 / 1024)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        cairo_surface_destroy(image)
    }

    /// A folder with the images `cairoPDF` needs: a baseline RGB JPEG, an opaque PNG, a PNG with alpha.
    static func images(in dir: URL) throws -> (jpeg: Data, png: URL, alphaPNG: URL) {
        let jpeg = try TestImages.gradientJPEG(width: 96, height: 64)
        let png = dir.appendingPathComponent("opaque.png")
        try TestImages.convert(["-size", "120x80", "gradient:#102040-#F0C020"], output: "PNG24:out.png").write(to: png)
        let alpha = dir.appendingPathComponent("alpha.png")
        try TestImages.convert(["-size", "100x100", "xc:none", "-fill", "#CC332280", "-draw", "circle 50,50 50,10"]).write(to: alpha)
        return (jpeg, png, alpha)
    }
}

/// Reading finished PDFs back.
enum PDFReaders {
    /// `pdfinfo -box` for every page: box name ("TrimBox") → rectangle, per page in order.
    static func boxes(_ pdf: URL) throws -> [[String: PDFRect]] {
        let out = try run("pdfinfo", ["-box", "-f", "1", "-l", "999", pdf.path])
        guard out.status == 0 else { throw ToolError("pdfinfo failed: \(out.stderr)") }
        var pages: [Int: [String: PDFRect]] = [:]
        for line in out.stdout.split(separator: "\n") {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cols.count == 7, cols[0] == "Page", let n = Int(cols[1]), cols[2].hasSuffix("Box:") else { continue }
            let v = cols[3...].compactMap { Double($0) }
            pages[n, default: [:]][String(cols[2].dropLast())] = PDFRect(llx: v[0], lly: v[1], urx: v[2], ury: v[3])
        }
        return pages.keys.sorted().map { pages[$0]! }
    }

    static func info(_ pdf: URL) throws -> [String: String] {
        let out = try run("pdfinfo", [pdf.path]).stdout
        var result: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// qpdf's JSON (version 2) of the whole file.
    struct QPDFJSON {
        let root: [String: Any]
        let objects: [String: Any]

        init(_ pdf: URL) throws {
            let out = try run("qpdf", ["--json", pdf.path])
            guard out.status == 0 || out.status == 3 else { throw ToolError("qpdf --json failed: \(out.stderr)") }
            root = try JSONSerialization.jsonObject(with: out.stdoutData) as! [String: Any]
            let qpdf = root["qpdf"] as! [Any]
            objects = qpdf[1] as! [String: Any]
        }

        /// The dictionary of an object ("3 0 R", or "trailer"), a stream's dictionary for a stream.
        func dict(_ ref: String) -> [String: Any]? {
            guard let entry = objects[ref == "trailer" ? "trailer" : "obj:\(ref)"] as? [String: Any] else { return nil }
            if let value = entry["value"] as? [String: Any] { return value }
            return (entry["stream"] as? [String: Any])?["dict"] as? [String: Any]
        }

        var trailer: [String: Any] { dict("trailer")! }
        var catalog: [String: Any] { dict(trailer["/Root"] as! String)! }
        var info: [String: Any] { dict(trailer["/Info"] as! String)! }
        var pages: [[String: Any]] { root["pages"] as! [[String: Any]] }
        var pageObjects: [String] { pages.map { $0["object"] as! String } }

        /// Every direct or nested value of every object, for scanning names.
        func allValues() -> [Any] {
            var out: [Any] = []
            func walk(_ v: Any) {
                out.append(v)
                if let d = v as? [String: Any] { d.values.forEach(walk) } else if let a = v as? [Any] { a.forEach(walk) }
            }
            objects.values.forEach(walk)
            return out
        }
    }

    /// A text string as qpdf's JSON writes it ("u:…" for text it could decode).
    static func text(_ v: Any?) -> String? {
        guard let s = v as? String, s.hasPrefix("u:") else { return nil }
        return String(s.dropFirst(2))
    }

    /// Ghostscript renders every page; what it printed (nothing, for a clean file).
    static func ghostscriptMessages(_ pdf: URL) throws -> String {
        let out = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=nullpage", pdf.path])
        return "\(out.stdout)\(out.stderr)" + (out.status == 0 ? "" : "exit \(out.status)")
    }

    struct InkCoverage {
        /// Highest C+M+Y+K of any pixel on the page, percent.
        var maximum: Double
        /// Mean C+M+Y+K over the page, percent.
        var mean: Double
    }

    /// Renders every page to CMYK (Ghostscript's `pam` device) and adds up the four inks of each
    /// pixel. The file's DeviceCMYK values reach the pixels unchanged: the page's colour space and
    /// the device's are the same default CMYK profile, which Ghostscript does not convert between.
    static func inkCoverage(_ pdf: URL, dpi: Int) throws -> [InkCoverage] {
        let dir = try temporaryDirectory("ink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=pam", "-r\(dpi)",
                                 "-o", dir.appendingPathComponent("p-%03d.pam").path, pdf.path])
        guard out.status == 0 else { throw ToolError("gs pam failed: \(out.stdout)\(out.stderr)") }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".pam") }.sorted()
        return try files.map { name in
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            return try data.withUnsafeBytes { raw -> InkCoverage in
                let bytes = raw.bindMemory(to: UInt8.self)
                guard let end = data.range(of: Data("ENDHDR\n".utf8)) else { throw ToolError("\(name): not a PAM file") }
                let header = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                guard header.contains("DEPTH 4"), header.contains("MAXVAL 255") else { throw ToolError("\(name): not 8-bit CMYK:\n\(header)") }
                var highest = 0, total = 0
                var i = end.upperBound
                let n = bytes.count
                while i + 3 < n {
                    let s = Int(bytes[i]) + Int(bytes[i + 1]) + Int(bytes[i + 2]) + Int(bytes[i + 3])
                    if s > highest { highest = s }
                    total += s
                    i += 4
                }
                let pixels = max(1, (n - end.upperBound) / 4)
                return InkCoverage(maximum: Double(highest) * 100 / 255, mean: Double(total) * 100 / 255 / Double(pixels))
            }
        }
    }

    /// Ghostscript renders page `page` to RGB; the pixel at (x, y) in points from the top left.
    static func rgbPixel(_ pdf: URL, page: Int, x: Double, y: Double) throws -> (Int, Int, Int) {
        let dir = try temporaryDirectory("rgb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.ppm")
        let out = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=ppmraw", "-r72",
                                 "-dFirstPage=\(page)", "-dLastPage=\(page)", "-o", file.path, pdf.path])
        guard out.status == 0 else { throw ToolError("gs ppmraw failed: \(out.stdout)\(out.stderr)") }
        let data = [UInt8](try Data(contentsOf: file))
        // P6 <w> <h> <max>\n then RGB bytes; Ghostscript puts a `#` comment line in the header.
        var fields: [Int] = [], i = 2
        while fields.count < 3 {
            while data[i] == 0x20 || data[i] == 0x0A || data[i] == UInt8(ascii: "#") {
                if data[i] == UInt8(ascii: "#") { while data[i] != 0x0A { i += 1 } }
                i += 1
            }
            var v = 0
            while data[i] >= 0x30 && data[i] <= 0x39 { v = v * 10 + Int(data[i] - 0x30); i += 1 }
            fields.append(v)
        }
        i += 1
        let at = i + (Int(y) * fields[0] + Int(x)) * 3
        return (Int(data[at]), Int(data[at + 1]), Int(data[at + 2]))
    }
}
