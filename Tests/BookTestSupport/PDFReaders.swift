import Foundation
import BookRender

/// Reading finished PDFs back with the readers a print shop uses: poppler's `pdfinfo`, qpdf's
/// JSON, Ghostscript's rasterizers.
public enum PDFReaders {
    /// `pdfinfo -box` for every page: box name ("TrimBox") → rectangle, per page in order.
    public static func boxes(_ pdf: URL) throws -> [[String: PDFRect]] {
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

    /// Each page's text as poppler's `pdftotext` extracts it (UTF-8, reading order).
    public static func popplerText(_ pdf: URL) throws -> [String] {
        let out = try run("pdftotext", ["-enc", "UTF-8", pdf.path, "-"])
        guard out.status == 0 else { throw ToolError("pdftotext failed: \(out.stderr)") }
        var pages = out.stdout.components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// Each page's text as MuPDF extracts it (PyMuPDF's `Page.get_text()`), the reader of
    /// SumatraPDF, zathura's MuPDF back end and many a text pipeline, which reads a PDF's text
    /// otherwise than poppler does.
    public static func mupdfText(_ pdf: URL) throws -> [String] {
        let script = """
        import json, sys
        try:
            import pymupdf
        except ImportError:
            sys.exit("PyMuPDF is not installed for " + sys.executable + "; run scripts/install-deps.sh")
        print(json.dumps([page.get_text() for page in pymupdf.open(sys.argv[1])]))
        """
        let debianPython = "/usr/bin/python3"
        let python = FileManager.default.isExecutableFile(atPath: debianPython) ? debianPython : "python3"
        let out = try run(python, ["-c", script, pdf.path])
        guard out.status == 0, let pages = try JSONSerialization.jsonObject(with: out.stdoutData) as? [String] else {
            throw ToolError("PyMuPDF could not read \(pdf.lastPathComponent): \(out.stderr)")
        }
        return pages
    }

    public static func info(_ pdf: URL) throws -> [String: String] {
        let out = try run("pdfinfo", [pdf.path]).stdout
        var result: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// qpdf's JSON (version 2) of the whole file.
    public struct QPDFJSON {
        public let root: [String: Any]
        public let objects: [String: Any]

        public init(_ pdf: URL) throws {
            let out = try run("qpdf", ["--json", pdf.path])
            guard out.status == 0 || out.status == 3 else { throw ToolError("qpdf --json failed: \(out.stderr)") }
            root = try JSONSerialization.jsonObject(with: out.stdoutData) as! [String: Any]
            let qpdf = root["qpdf"] as! [Any]
            objects = qpdf[1] as! [String: Any]
        }

        /// The dictionary of an object ("3 0 R", or "trailer"), a stream's dictionary for a stream.
        public func dict(_ ref: String) -> [String: Any]? {
            guard let entry = objects[ref == "trailer" ? "trailer" : "obj:\(ref)"] as? [String: Any] else { return nil }
            if let value = entry["value"] as? [String: Any] { return value }
            return (entry["stream"] as? [String: Any])?["dict"] as? [String: Any]
        }

        public var trailer: [String: Any] { dict("trailer")! }
        public var catalog: [String: Any] { dict(trailer["/Root"] as! String)! }
        public var info: [String: Any] { dict(trailer["/Info"] as! String)! }
        public var pages: [[String: Any]] { root["pages"] as! [[String: Any]] }
        public var pageObjects: [String] { pages.map { $0["object"] as! String } }

        /// Every direct or nested value of every object, for scanning names.
        public func allValues() -> [Any] {
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
    public static func text(_ v: Any?) -> String? {
        guard let s = v as? String, s.hasPrefix("u:") else { return nil }
        return String(s.dropFirst(2))
    }

    /// Ghostscript renders every page; what it printed (nothing, for a clean file).
    public static func ghostscriptMessages(_ pdf: URL) throws -> String {
        let out = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=nullpage", pdf.path])
        return "\(out.stdout)\(out.stderr)" + (out.status == 0 ? "" : "exit \(out.status)")
    }

    public struct InkCoverage: Sendable {
        /// Highest C+M+Y+K of any pixel on the page, percent.
        public var maximum: Double
        /// Mean C+M+Y+K over the page, percent.
        public var mean: Double
    }

    /// Renders every page to CMYK (Ghostscript's `pam` device) and adds up the four inks of each
    /// pixel. The file's DeviceCMYK values reach the pixels unchanged: the page's colour space and
    /// the device's are the same default CMYK profile, which Ghostscript does not convert between.
    public static func inkCoverage(_ pdf: URL, dpi: Int) throws -> [InkCoverage] {
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
    public static func rgbPixel(_ pdf: URL, page: Int, x: Double, y: Double) throws -> (Int, Int, Int) {
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
