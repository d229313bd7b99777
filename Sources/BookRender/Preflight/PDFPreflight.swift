import Foundation
import BookBase
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
        let boxes = PageBoxes.parse(info)
        out += trimAndPageCount(boxes: boxes, pages: pages, profile: profile, name: name)
        if profile.hasBleed, let page = boxes.keys.sorted().first(where: { boxes[$0]?.trim == boxes[$0]?.media }) {
            out.append(PreflightFinding(.error, .missingBoxes, page: page, file: name,
                                        "no TrimBox inside the MediaBox: the printer cannot tell the trim from the bleed"))
        }
        out += try textOutsideSafeArea(pdf, boxes: boxes, profile: profile, name: name)
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

extension PDFPreflight {
    /// Words (from `pdftotext -bbox`) inside the trim but closer to its edge than the safety
    /// distance. Words wholly outside the trim are marks and slug lines, which belong there.
    static func textOutsideSafeArea(_ pdf: URL, boxes: [Int: PageBoxes], profile: PrintProfile, name: String) throws -> [PreflightFinding] {
        let html = try PopplerTool.run("pdftotext", ["-bbox", pdf.path, "-"])
        var out: [PreflightFinding] = []
        var page = 0
        var reported = Set<Int>()
        let number = #"([0-9.]+)"#
        let wordPattern = try NSRegularExpression(pattern: #"<word xMin=""# + number + #"" yMin=""# + number + #"" xMax=""# + number + #"" yMax=""# + number + #"">([^<]*)</word>"#)
        for line in html.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard !reported.contains(page), let b = boxes[page], line.contains("<word") else { continue }
            let text = String(line)
            guard let m = wordPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { continue }
            let v = (1...4).compactMap { Double(text[Range(m.range(at: $0), in: text)!]) }
            guard v.count == 4 else { continue }
            // pdftotext measures from the MediaBox's top-left; the boxes are bottom-left based.
            let h = b.media[3] - b.media[1]
            let word = (x0: v[0], y0: h - v[3], x1: v[2], y1: h - v[1])
            let trim = b.trim, s = profile.safety.points
            let insideTrim = word.x1 > trim[0] && word.x0 < trim[2] && word.y1 > trim[1] && word.y0 < trim[3]
            let insideSafe = word.x0 >= trim[0] + s - 0.5 && word.x1 <= trim[2] - s + 0.5 && word.y0 >= trim[1] + s - 0.5 && word.y1 <= trim[3] - s + 0.5
            if insideTrim && !insideSafe {
                let w = String(text[Range(m.range(at: 5), in: text)!])
                let distance = min(word.x0 - trim[0], trim[2] - word.x1, word.y0 - trim[1], trim[3] - word.y1)
                out.append(PreflightFinding(.error, .outsideSafeArea, page: page, file: name,
                    String(format: "text \"%@\" is %.2f in from the trim edge (negative: in the bleed); %@ wants %.2f in", w, distance / 72, profile.name, s / 72)))
                reported.insert(page)
            }
        }
        return out
    }

    /// MediaBox and TrimBox per page from `pdfinfo -box -f 1 -l N`.
    struct PageBoxes: Equatable {
        var media: [Double] = []
        var trim: [Double] = []

        static func parse(_ info: String) -> [Int: PageBoxes] {
            var out: [Int: PageBoxes] = [:]
            for line in info.split(separator: "\n") where line.hasPrefix("Page ") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count >= 7, let page = Int(parts[1]) else { continue }
                let values = parts.suffix(4).compactMap { Double($0) }
                guard values.count == 4 else { continue }
                switch parts[2] {
                case "MediaBox:": out[page, default: PageBoxes()].media = values
                case "TrimBox:": out[page, default: PageBoxes()].trim = values
                default: break
                }
            }
            return out
        }
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
        return try TemporaryFiles.withScratchFile(tool) { out in
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
}
