import Foundation
import CGraphics
import BookLayout
import BookBase
import BookConfig

/// Rasterizes pages to PNG files (one per page, at the DPI asked) and, on request, facing-page
/// previews: page 1 alone on the right, then 2|3, 4|5…, with shading along the spine.
public struct PNGPageWriter: Sendable {
    public var dpi: Double
    public var spreads: Bool
    /// Called after each page's file is written (not a spread's), on the writing thread.
    public var pageWritten: (@Sendable () -> Void)?

    public init(dpi: Double = 150, spreads: Bool = false) { self.dpi = dpi; self.spreads = spreads }

    /// Returns the files written, in page order.
    @discardableResult
    public func write(_ tree: PageTree, to directory: URL, pages: Set<Int>? = nil) throws -> [URL] {
        var batch: [PageNode]? = tree.pages.filter { pages?.contains($0.number) ?? true }
        return try write(tree, to: directory) { defer { batch = nil }; return batch }
    }

    /// Writes the pages `next` hands out, batch after batch (in page order within each), until it
    /// returns nil, with one drawer and its decoded images for all; a spread preview is made from
    /// the pages of one batch. Returns the files written, in the order written.
    func write(_ tree: PageTree, to directory: URL, batches next: () -> [PageNode]?) throws -> [URL] {
        try checkSize(tree)
        try AtomicOutput.makeFolder(directory)
        let drawer = PageDrawer(images: RasterImageSources(dpi: dpi), text: .glyphRuns)
        let size = pixelSize(tree)
        var written: [URL] = []
        while let batch = next() {
            try write(batch, drawer: drawer, size: size, to: directory, &written)
        }
        return written
    }

    private func write(_ pages: [PageNode], drawer: PageDrawer, size: (width: Int, height: Int), to directory: URL,
                       _ written: inout [URL]) throws {
        var pendingLeft: (number: Int, surface: OpaquePointer)?
        defer { if let p = pendingLeft { cairo_surface_destroy(p.surface) } }

        for page in pages {
            let surface = try Self.drawn(page, drawer: drawer, size: size, dpi: dpi)
            var keep = false
            defer { if !keep { cairo_surface_destroy(surface) } }
            let url = directory.appendingPathComponent(PageFileName.page(page.number))
            try AtomicOutput.write(to: url) { tmp in try PNGWriter.write(surface: surface, to: tmp.path, as: url.path, dpi: dpi) }
            written.append(url)
            pageWritten?()

            guard spreads else { continue }
            if page.side == .left {
                if let p = pendingLeft { try spread(left: p, right: nil, size, directory, &written); cairo_surface_destroy(p.surface) }
                pendingLeft = (page.number, surface)
                keep = true
            } else {
                let left = pendingLeft.flatMap { $0.number == page.number - 1 ? $0 : nil }
                try spread(left: left, right: (page.number, surface), size, directory, &written)
                if let p = pendingLeft { cairo_surface_destroy(p.surface); pendingLeft = nil }
            }
        }
        if spreads, let p = pendingLeft {
            try spread(left: p, right: nil, size, directory, &written)
        }
    }

    /// A new image surface (the caller destroys it) with `page` drawn on white at `dpi`.
    static func drawn(_ page: PageNode, drawer: PageDrawer, size: (width: Int, height: Int), dpi: Double) throws -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(size.width), Int32(size.height))!
        let cr = cairo_create(surface)!
        let paper = page.paper ?? .white
        cairo_set_source_rgb(cr, paper.red, paper.green, paper.blue)
        cairo_paint(cr)
        cairo_scale(cr, dpi / 72, dpi / 72)
        defer { cairo_destroy(cr) }
        do {
            try drawer.draw(page, on: cr)
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        return surface
    }

    /// cairo draws images of at most 32,767 pixels a side: a large trim at a high resolution is
    /// refused before anything is drawn, with the resolution that fits.
    public func checkSize(_ tree: PageTree) throws(PNGSizeError) { try checkSize(trim: tree.trim) }

    public func checkSize(trim: TrimSize) throws(PNGSizeError) {
        let size = pixelSize(trim: trim)
        let wide = spreads ? 2 * size.width : size.width
        guard wide > Self.largestSide || size.height > Self.largestSide else { return }
        let across = spreads ? 2 * trim.width : trim.width
        let fits = Int((Double(Self.largestSide) * 72 / max(across, trim.height)).rounded(.down))
        throw PNGSizeError(message: "at \(Int(dpi)) dpi a \(spreads ? "spread" : "page") of this book is \(wide) × \(size.height) pixels, "
                           + "more than the \(Self.largestSide) a side cairo draws; use --dpi \(fits) or lower")
    }

    public static let largestSide = 32_767

    public func pixelSize(_ tree: PageTree) -> (width: Int, height: Int) { pixelSize(trim: tree.trim) }

    func pixelSize(trim: TrimSize) -> (width: Int, height: Int) {
        (Int((trim.width * dpi / 72).rounded()), Int((trim.height * dpi / 72).rounded()))
    }

    private func spread(left: (number: Int, surface: OpaquePointer)?, right: (number: Int, surface: OpaquePointer)?,
                        _ size: (width: Int, height: Int), _ directory: URL, _ written: inout [URL]) throws {
        let w = size.width, h = size.height
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(2 * w), Int32(h))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        // The empty side of a lone page is a neutral grey, like a viewer's desk, not paper.
        cairo_set_source_rgb(cr, 0.86, 0.86, 0.86)
        cairo_paint(cr)
        if let l = left { cairo_set_source_surface(cr, l.surface, 0, 0); cairo_paint(cr) }
        if let r = right { cairo_set_source_surface(cr, r.surface, Double(w), 0); cairo_paint(cr) }
        if left != nil && right != nil {
            let shade = Double(w) * 0.06
            let pattern = cairo_pattern_create_linear(Double(w) - shade, 0, Double(w) + shade, 0)!
            cairo_pattern_add_color_stop_rgba(pattern, 0, 0, 0, 0, 0)
            cairo_pattern_add_color_stop_rgba(pattern, 0.5, 0, 0, 0, 0.28)
            cairo_pattern_add_color_stop_rgba(pattern, 1, 0, 0, 0, 0)
            cairo_rectangle(cr, Double(w) - shade, 0, 2 * shade, Double(h))
            cairo_set_source(cr, pattern)
            cairo_fill(cr)
            cairo_pattern_destroy(pattern)
        }
        let url = directory.appendingPathComponent(PageFileName.spread([left?.number, right?.number].compactMap { $0 }))
        cairo_surface_flush(surface)
        try AtomicOutput.write(to: url) { tmp in try PNGWriter.write(surface: surface, to: tmp.path, as: url.path, dpi: dpi) }
        written.append(url)
    }
}

/// Page PNGs larger than can be drawn: the resolution asked for is too high for the trim.
public struct PNGSizeError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
