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

/// Rasterizes PDF pages at a resolution, every page `ceil(points × dpi / 72)` pixels a side (as
/// both poppler programs size them).
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
        let process = Process()
        process.executableURL = program
        process.arguments = ["-r", String(dpi), "-png", pdf.path, folder.appendingPathComponent("page").path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        // stderr goes to a file, not a pipe, so a chatty run can never block on a full pipe.
        let errors = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        do {
            let handle = try FileHandle(forWritingTo: errors)
            defer { try? handle.close() }
            process.standardError = handle
            try process.run()
            process.waitUntilExit()
        } catch {
            throw CompareError(.rasterizer, "cannot run \(name): \(error)")
        }
        let message = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw CompareError(.unreadable, "\(name) cannot read \(pdf.path) (exit \(process.terminationStatus))"
                + (message.isEmpty ? "" : ": \(message)"))
        }
        // poppler names pages page-1.png or page-01.png… depending on the page count.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var pages: [(Int, URL)] = []
        for file in files {
            if let number = PageFileName.pageNumber(of: file) { pages.append((number, folder.appendingPathComponent(file))) }
        }
        return pages.sorted { $0.0 < $1.0 }.map(\.1)
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
