import Foundation
import CGraphics
import CShim
import BookBase
import CPoppler

/// Who turns a PDF page into pixels.
public enum Rasterizer: String, Sendable, Codable, CaseIterable {
    /// poppler's `pdftoppm` (Splash), run as a separate program: an independent second opinion
    /// on the PDF, as a print shop's RIP would be.
    case pdftoppm
    /// poppler-glib drawing onto a cairo image surface in this process: cairo on both sides of
    /// the PDF, and no external program.
    case cairo
}

/// Rasterizes PDF pages at a resolution, every page `ceil(points × dpi / 72)` pixels a side as
/// pdftoppm sizes them, so both rasterizers give pages of the same size.
public enum PDFRasterizer {
    /// Every page of `pdf`, in order.
    public static func rasterize(_ pdf: URL, dpi: Double, using rasterizer: Rasterizer) throws(CompareError) -> [RGBAImage] {
        let source = try PageSource.pdf(pdf, dpi: dpi, rasterizer: rasterizer)
        var images: [RGBAImage] = []
        for name in source.names { images.append(try source.image(named: name)) }
        return images
    }

    static func pixels(points: Double, dpi: Double) -> Int {
        // The same expression pdftoppm evaluates, so the rounding agrees to the last bit.
        Int((points * (dpi / 72.0)).rounded(.up))
    }

    static func checkDPI(_ dpi: Double) throws(CompareError) {
        guard dpi.isFinite, dpi > 0, dpi <= 2400 else {
            throw CompareError(.invalidArgument, "dpi must be a positive number up to 2400, not \(dpi)")
        }
    }
}

/// An open poppler-glib document that renders pages onto cairo image surfaces.
final class PopplerDocument {
    // poppler keeps global state (font caches, GlobalParams); rendering is serialized so parallel
    // comparisons in one process cannot trip over it.
    private static let lock = NSLock()

    private let document: OpaquePointer
    let pageCount: Int
    let path: String

    init(url: URL) throws(CompareError) {
        path = url.path
        var error: UnsafeMutablePointer<GError>? = nil
        guard let uri = g_filename_to_uri(url.path, nil, &error) else {
            let reason = Self.consume(&error)
            throw CompareError(.unreadable, "cannot read \(url.path): \(reason)")
        }
        defer { g_free(uri) }
        Self.lock.lock()
        let opened = poppler_document_new_from_file(uri, nil, &error)
        Self.lock.unlock()
        guard let opened else {
            let reason = Self.consume(&error)
            throw CompareError(.unreadable, "cannot read \(url.path) as a PDF: \(reason)")
        }
        document = opened
        pageCount = Int(poppler_document_get_n_pages(opened))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    /// Page `index` (0-based) on white, at `dpi`.
    func render(page index: Int, dpi: Double) throws(CompareError) -> RGBAImage {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        guard index >= 0, index < pageCount, let page = poppler_document_get_page(document, Int32(index)) else {
            throw CompareError(.rasterizer, "\(path) has no page \(index + 1)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        let pixelWidth = PDFRasterizer.pixels(points: width, dpi: dpi)
        let pixelHeight = PDFRasterizer.pixels(points: height, dpi: dpi)
        guard pixelWidth > 0, pixelHeight > 0, pixelWidth <= 32767, pixelHeight <= 32767 else {
            throw CompareError(.rasterizer, "page \(index + 1) of \(path) would be \(pixelWidth)×\(pixelHeight) pixels at \(dpi) dpi")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixelWidth), Int32(pixelHeight)) else {
            throw CompareError(.rasterizer, "out of memory for page \(index + 1) of \(path)")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        // Paper is white; the PDF draws only what is on it.
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, dpi / 72.0, dpi / 72.0)
        poppler_page_render(page, cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CompareError(.rasterizer, "rendering page \(index + 1) of \(path) failed: \(String(cString: cairo_status_to_string(status)))")
        }
        return try RGBAImage(cairoSurface: surface)
    }

    private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let e = error else { return "unknown error" }
        let text = e.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(e)
        error = nil
        return text
    }
}

/// Runs pdftoppm over a whole PDF into a folder of PNGs, one per page.
enum PDFToPPM {
    /// The page PNGs in page order.
    static func rasterize(_ pdf: URL, dpi: Double, into folder: URL) throws(CompareError) -> [URL] {
        guard let program = findOnPath("pdftoppm") else {
            throw CompareError(.rasterizer, "pdftoppm is not installed (Debian package poppler-utils); use --rasterizer cairo or install it")
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
            throw CompareError(.rasterizer, "cannot run pdftoppm: \(error)")
        }
        let message = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw CompareError(.unreadable, "pdftoppm cannot read \(pdf.path) (exit \(process.terminationStatus))"
                + (message.isEmpty ? "" : ": \(message)"))
        }
        // pdftoppm names pages page-1.png or page-01.png… depending on the page count.
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
