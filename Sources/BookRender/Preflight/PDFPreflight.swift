import Foundation
import BookBase
import BookConfig

/// Preflight of any PDF file against a print profile, read with poppler's own tools, qpdf and
/// Ghostscript (the same readers a print shop's checks are built on): page count and boxes from
/// `pdfinfo -box`; which boxes each page really has, transparency, colour spaces and the PDF/X
/// keys from the objects (`PDFObjects`); the ink of the text as Ghostscript draws it
/// (`PDFTextInk`); total ink, black text in four inks and content short of the bleed in
/// Ghostscript's CMYK rendering (`renderedChecks`); a cover sheet against its spine
/// (`coverSheet`); fonts from `pdffonts`, image resolution from `pdfimages -list`, and the file's size.
///
/// Characters that could not be set are not looked for here: bookrender draws each as a box of
/// hex digits in an ordinary font, which no reader tells from real digits, and finding `.notdef`
/// in another program's PDF means decoding every font's encoding and content stream, which no
/// poppler or Ghostscript tool reports. The book preflight finds them at layout.
public enum PDFPreflight {
    /// `cover`: the file is a cover sheet for an interior of that many pages (one page, no
    /// interior page-count or trim rule; its size against the spine formula instead).
    public static func check(_ pdf: URL, profile: PrintProfile, cover: CoverSheet? = nil,
                             binding: CoverBinding = .paperback) throws -> [PreflightFinding] {
        let name = pdf.lastPathComponent
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: pdf.path) else {
            throw RenderError("\(pdf.path): no such file")
        }
        var out: [PreflightFinding] = []
        let info = try ReaderTool.run("pdfinfo", ["-box", "-f", "1", "-l", "100000", pdf.path])
        guard let pages = info.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") })
                .flatMap({ Int($0.split(separator: " ").last ?? "") }) else {
            throw RenderError("\(pdf.path): not a PDF poppler can read")
        }
        let boxes = PageBoxes.parse(info)
        var sheet: SheetGeometry?
        if let cover {
            let (findings, geometry) = try coverSheet(cover, boxes: boxes, pages: pages, profile: profile, name: name)
            out += findings
            sheet = geometry
        } else {
            out += InteriorPageCount.findings(pages, profile: profile, binding: binding, file: name)
            out += trimAndPageCount(boxes: boxes, pages: pages, profile: profile, name: name)
        }
        let objects = try PDFObjects.read(pdf, colour: profile.isCMYK)
        out += boxesAndBleed(boxes: boxes, objects: objects, profile: profile, name: name, sheet: sheet)
        out += objectFindings(objects, profile: profile, name: name)
        out += try PDFTextInk.outsideSafeArea(pdf, boxes: boxes, profile: profile, name: name, bindsOnRight: objects.readsRightToLeft)
        let fonts = try ReaderTool.run("pdffonts", [pdf.path]).split(separator: "\n").dropFirst(2)
        for line in fonts {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cols.count >= 7 else { continue }
            let embedded = cols[cols.count - 5]
            if embedded != "yes" {
                out.append(PreflightFinding(.error, .fontNotEmbedded, file: name,
                    "font \(cols[0]) is not embedded; \(profile.name) prints only the fonts a file carries: embed every font (a subset will do)"))
            }
        }
        out += try picturesBelowResolution(pdf, profile: profile, name: name)
        out += try renderedChecks(pdf, boxes: boxes, profile: profile, name: name, sheet: sheet, bindsOnRight: objects.readsRightToLeft)
        let bytes = (attributes[.size] as? NSNumber)?.doubleValue ?? 0
        if let limit = profile.maxFileSizeMB, bytes > limit * 1_048_576 {
            out.append(PreflightFinding(.error, .fileSize, file: name,
                String(format: "%.1f MB, over the %.0f MB %@ accepts", bytes / 1_048_576, limit, profile.name)))
        }
        return out
    }
}

extension PDFPreflight {
    /// MediaBox, TrimBox and BleedBox per page from `pdfinfo -box -f 1 -l N`, which gives a box a
    /// page lacks as the one it defaults to (a TrimBox or BleedBox as the CropBox, itself the
    /// MediaBox) and cuts each to the MediaBox.
    struct PageBoxes: Equatable {
        var media: [Double] = []
        var trim: [Double] = []
        var bleed: [Double] = []

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
                case "BleedBox:": out[page, default: PageBoxes()].bleed = values
                default: break
                }
            }
            return out
        }
    }
}

/// Runs one of the command-line readers (poppler's, Ghostscript) and returns what it printed on
/// standard output, or on standard error for a reader that reports there (Ghostscript's bbox device).
enum ReaderTool {
    enum Stream { case output, error }

    static func run(_ tool: String, _ arguments: [String], reading stream: Stream = .output) throws -> String {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            let package = tool == "gs" ? "ghostscript" : "poppler-utils"
            throw RenderError("\(tool) is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        return try TemporaryFiles.withScratchFile(tool) { out in
            let handle = try FileHandle(forWritingTo: out)
            p.standardOutput = stream == .output ? handle : FileHandle.nullDevice
            p.standardError = stream == .error ? handle : FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            // Killed with the run when it is stopped: its answer would be of no use.
            let token = TemporaryFiles.track(childProcess: p.processIdentifier, signal: SIGKILL)
            p.waitUntilExit()
            TemporaryFiles.forget(token)
            try handle.close()
            guard p.terminationStatus == 0 else { throw RenderError("\(tool) could not read \(arguments.last ?? "")") }
            return String(decoding: try Data(contentsOf: out), as: UTF8.self)
        }
    }
}
