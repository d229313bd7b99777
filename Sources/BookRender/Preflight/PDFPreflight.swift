import Foundation
import BookConfig

/// Preflight of a PDF file against a print profile, read with poppler's own tools (the same
/// readers a print shop's checks are built on): page count and boxes from `pdfinfo -box`, fonts
/// from `pdffonts`, image resolution from `pdfimages -list`, and the file's size.
public enum PDFPreflight {
    public static func check(_ pdf: URL, profile: PrintProfile) throws -> [PreflightFinding] {
        let name = pdf.lastPathComponent
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: pdf.path) else {
            throw RenderError("\(pdf.path): no such file")
        }
        var out: [PreflightFinding] = []
        let info = try PopplerTool.run("pdfinfo", ["-box", "-f", "1", "-l", "100000", pdf.path])
        guard let pages = info.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") })
                .flatMap({ Int($0.split(separator: " ").last ?? "") }) else {
            throw RenderError("\(pdf.path): not a PDF poppler can read")
        }
        if let min = profile.pages.min, pages < min {
            out.append(PreflightFinding(.error, .pageCount, file: name, "\(pages) pages; \(profile.name) prints at least \(min)"))
        }
        if let max = profile.pages.max, pages > max {
            out.append(PreflightFinding(.error, .pageCount, file: name, "\(pages) pages; \(profile.name) prints at most \(max)"))
        }
        if profile.hasBleed {
            // pdfinfo prints a box equal to the MediaBox when the page has none: compare them.
            for page in 1...max(1, pages) {
                let lines = info.split(separator: "\n").filter { $0.hasPrefix("Page") && $0.contains(" \(page) ") || $0.hasPrefix("Page \(page) ") }
                let media = lines.first { $0.contains("MediaBox") }.map { $0.split(separator: ":").last ?? "" }
                let trim = lines.first { $0.contains("TrimBox") }.map { $0.split(separator: ":").last ?? "" }
                if let media, let trim, media == trim {
                    out.append(PreflightFinding(.error, .missingBoxes, page: page, file: name,
                                                "no TrimBox inside the MediaBox: the printer cannot tell the trim from the bleed"))
                    break
                }
            }
        }
        let fonts = try PopplerTool.run("pdffonts", [pdf.path]).split(separator: "\n").dropFirst(2)
        for line in fonts {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cols.count >= 7 else { continue }
            let embedded = cols[cols.count - 5]
            if embedded != "yes" {
                out.append(PreflightFinding(.error, .fontNotEmbedded, file: name, "font \(cols[0]) is not embedded"))
            }
        }
        let images = try PopplerTool.run("pdfimages", ["-list", pdf.path]).split(separator: "\n").dropFirst(2)
        for line in images {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cols.count >= 14, cols[2] == "image", let page = Int(cols[0]),
                  let xppi = Double(cols[12]), let yppi = Double(cols[13]) else { continue }
            // Images under about 100 px are ornaments (emoji, marks), not pictures a printer judges.
            guard let w = Int(cols[3]), let h = Int(cols[4]), w * h > 10_000 else { continue }
            let dpi = min(xppi, yppi)
            if dpi + 0.5 < profile.minImageDPI {
                out.append(PreflightFinding(.warning, .lowResolution, page: page, file: name,
                    String(format: "a %d×%d image prints at %.0f dpi, below %.0f", w, h, dpi, profile.minImageDPI)))
            }
        }
        let bytes = (attributes[.size] as? NSNumber)?.doubleValue ?? 0
        if let limit = profile.maxFileSizeMB, bytes > limit * 1_048_576 {
            out.append(PreflightFinding(.error, .fileSize, file: name,
                String(format: "%.1f MB, over the %.0f MB %@ accepts", bytes / 1_048_576, limit, profile.name)))
        }
        return out
    }
}

/// Runs one of poppler's command-line readers and returns what it printed.
enum PopplerTool {
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw RenderError("\(tool) is not installed (Debian package poppler-utils; scripts/install-deps.sh installs it)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bookrender-\(tool)-\(getpid())-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        let handle = try FileHandle(forWritingTo: out)
        p.standardOutput = handle
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        try handle.close()
        guard p.terminationStatus == 0 else { throw RenderError("\(tool) could not read \(arguments.last ?? "")") }
        return String(decoding: try Data(contentsOf: out), as: UTF8.self)
    }
}
