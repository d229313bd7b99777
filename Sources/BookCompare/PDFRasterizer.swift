import Foundation
import CGraphics
import CShim
import BookBase

/// Who turns a PDF page into pixels.
public enum Rasterizer: String, Sendable, Codable, CaseIterable {
    /// poppler's `pdftoppm` (Splash), run as a separate program: an independent second opinion
    /// on the PDF, as a print shop's RIP would be.
    case pdftoppm
    /// poppler's `pdftocairo`: poppler drawing through cairo, as bookrender's own PNG pages are
    /// drawn, so glyph edges and image smoothing come out alike.
    case cairo

    /// The poppler-utils program that rasterizes this way.
    var program: String {
        switch self {
        case .pdftoppm: "pdftoppm"
        case .cairo: "pdftocairo"
        }
    }
}

/// Rasterizes PDF pages at a resolution, every page `points × dpi / 72` pixels a side rounded to
/// the nearest, as bookrender's PNG pages are sized, so a book's PNGs and its own PDF pair up.
/// (Left to themselves, the poppler programs round differently from each other: pdftocairo makes
/// 901 pixels where the PNG has 900.)
public enum PDFRasterizer {
    /// Every page of `pdf`, in order.
    public static func rasterize(_ pdf: URL, dpi: Double, using rasterizer: Rasterizer) throws(CompareError) -> [RGBAImage] {
        let source = try PageSource.pdf(pdf, dpi: dpi, rasterizer: rasterizer)
        var images: [RGBAImage] = []
        for name in source.names { images.append(try source.image(named: name)) }
        return images
    }

    static func checkDPI(_ dpi: Double) throws(CompareError) {
        guard dpi.isFinite, dpi > 0, dpi <= 2400 else {
            throw CompareError(.invalidArgument, "dpi must be a positive number up to 2400, not \(dpi)")
        }
    }
}

/// Runs one of poppler's programs over a whole PDF into a folder of PNGs, one per page.
enum PopplerProgram {
    /// The page PNGs in page order.
    static func rasterize(_ pdf: URL, dpi: Double, using rasterizer: Rasterizer, into folder: URL) throws(CompareError) -> [URL] {
        let name = rasterizer.program
        guard let program = findOnPath(name) else {
            throw CompareError(.rasterizer, "\(name) is not installed; install Debian's poppler-utils")
        }
        for run in try PageSizes.runs(of: pdf, dpi: dpi, folder: folder) {
            let pages: [String] = ["-f", String(run.first), "-l", String(run.last)]
            let size: [String] = ["-scale-to-x", String(run.width), "-scale-to-y", String(run.height)]
            try rasterize(pdf, program: program, name: name, into: folder, arguments: ["-r", String(dpi)] + pages + size)
        }
        // poppler names pages page-1.png or page-01.png… depending on the page count.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var pages: [(Int, URL)] = []
        for file in files {
            if let number = PageFileName.pageNumber(of: file) { pages.append((number, folder.appendingPathComponent(file))) }
        }
        return pages.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Runs `program` with `arguments`, which read `pdf`; returns what it printed.
    static func run(_ program: URL, name: String, _ arguments: [String], reading pdf: URL, in folder: URL) throws(CompareError) -> String {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = folder.appendingPathComponent("stdout.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let errors = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        do {
            let out = try FileHandle(forWritingTo: output), err = try FileHandle(forWritingTo: errors)
            defer { try? out.close(); try? err.close() }
            process.standardOutput = out
            process.standardError = err
            try process.run()
            process.waitUntilExit()
        } catch {
            throw CompareError(.rasterizer, "cannot run \(name): \(error)")
        }
        let message = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errors)
        guard process.terminationStatus == 0 else {
            throw CompareError(.unreadable, "\(name) cannot read \(pdf.path) (exit \(process.terminationStatus))"
                + (message.isEmpty ? "" : ": \(message)"))
        }
        return printed
    }

    private static func rasterize(_ pdf: URL, program: URL, name: String, into folder: URL, arguments: [String]) throws(CompareError) {
        _ = try run(program, name: name, arguments + ["-png", pdf.path, folder.appendingPathComponent("page").path], reading: pdf, in: folder)
    }

    static func findOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }
}
