import Foundation
import CShim

/// A picture shrunk to a small grid of colours, upright (EXIF orientation applied), for judging
/// where its subject is and how dark or light it is under text. Made from the file's bytes alone,
/// so the same bytes always give the same thumbnail (which lets `PictureAnalysisCache` keep it).
public struct Thumbnail: Sendable, Equatable {
    /// Cells across and down.
    public let width: Int
    public let height: Int
    /// Red, green and blue in 0…1 (sRGB), row by row from the top; transparency shows white paper.
    public let red: [Float], green: [Float], blue: [Float]
    private let labCells = LabCells()

    public init(width: Int, height: Int, red: [Float], green: [Float], blue: [Float]) {
        precondition(red.count == width * height && green.count == red.count && blue.count == red.count)
        self.width = width; self.height = height; self.red = red; self.green = green; self.blue = blue
    }

    /// With its cells in CIELAB as `lab` worked them out before (kept in the cache with it).
    init(width: Int, height: Int, red: [Float], green: [Float], blue: [Float], lab: [CIELab]) {
        self.init(width: width, height: height, red: red, green: green, blue: blue)
        precondition(lab.count == red.count)
        labCells.keep(lab)
    }

    public static func == (a: Thumbnail, b: Thumbnail) -> Bool {
        a.width == b.width && a.height == b.height && a.red == b.red && a.green == b.green && a.blue == b.blue
    }

    /// Every cell in CIELAB, row by row as `red`, worked out on first use and kept with the
    /// thumbnail: layout weighs the colours under each place it tries for a page's words, and
    /// converting them again for every try was most of placing them.
    public var lab: [CIELab] { labCells.cells(of: self) }

    /// Works out `lab` of each of `thumbnails` on a thread of its own, in order, while the caller
    /// goes on: layout, which asks for them page by page, runs on one core and leaves the other
    /// idle. A thumbnail layout reaches first is worked out there, once (the other waits for it).
    public static func labAhead(_ thumbnails: [Thumbnail]) {
        guard !thumbnails.isEmpty else { return }
        Thread.detachNewThread { for t in thumbnails { _ = t.lab } }
    }

    /// The cells on the longer side.
    public static let longSide = 64
    /// The fewest cells on the shorter side, up to twice `longSide` on the longer: a figure in a
    /// panorama for a spread is as small a share of its height as in any picture, and must still
    /// cover a few cells to be found.
    public static let shortSide = 40

    /// Raised whenever `make` may give another thumbnail for the same bytes: thumbnails kept in
    /// the user's cache under an older version are then made again.
    public static let version = 1

    /// The asset's picture as a thumbnail; nil when its bytes no longer decode (drawing reports that).
    public static func make(_ asset: ImageAsset) -> Thumbnail? {
        let data = asset.readBytes()
        guard !data.isEmpty else { return nil }
        let decoded: (words: [UInt32], width: Int, height: Int)?
        switch asset.info.format {
        case .jpeg: decoded = decodeJPEG(data)
        case .png: decoded = decodePNG(data)
        }
        guard let decoded else { return nil }
        return shrink(decoded.words, width: decoded.width, height: decoded.height, orientation: asset.info.orientation)
    }

    /// The smallest DCT scale that still gives a few pixels per cell.
    private static func decodeJPEG(_ data: Data) -> (words: [UInt32], width: Int, height: Int)? {
        var image = shim_jpeg_image(pixels: nil, stride: 0, width: 0, height: 0, scale_num: 0)
        let side = Int32(longSide * 2)
        let status = data.withUnsafeBytes { raw in
            shim_jpeg_decode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, side, side, &image, nil, 0)
        }
        guard status == SHIM_JPEG_OK, let pixels = image.pixels else { return nil }
        defer { free(pixels) }
        return (words(pixels, stride: image.stride, width: Int(image.width), height: Int(image.height)), Int(image.width), Int(image.height))
    }

    private static func decodePNG(_ data: Data) -> (words: [UInt32], width: Int, height: Int)? {
        var image = shim_png_image(pixels: nil, stride: 0, width: 0, height: 0, has_alpha: 0)
        let status = data.withUnsafeBytes { raw in
            shim_png_decode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &image, nil, 0)
        }
        guard status == SHIM_PNG_OK, let pixels = image.pixels else { return nil }
        defer { free(pixels) }
        var result = words(pixels, stride: image.stride, width: Int(image.width), height: Int(image.height))
        if image.has_alpha == 0 { for i in result.indices { result[i] |= 0xFF00_0000 } }
        return (result, Int(image.width), Int(image.height))
    }

    private static func words(_ pixels: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(pixels + y * stride)
            for x in 0..<width { out[y * width + x] = row.load(fromByteOffset: x * 4, as: UInt32.self) }
        }
        return out
    }

    /// Averages the stored pixels into the upright grid: each pixel lands in the cell its centre
    /// turns to. Cairo's words are premultiplied 0xAARRGGBB; what is transparent shows paper.
    static func shrink(_ words: [UInt32], width: Int, height: Int, orientation: Int) -> Thumbnail? {
        guard width > 0, height > 0 else { return nil }
        let swap = ExifOrientation.swapsAxes(orientation)
        let shownW = swap ? height : width, shownH = swap ? width : height
        let long = Double(max(shownW, shownH)), short = Double(min(shownW, shownH))
        let scale = min(max(Double(longSide) / long, Double(shortSide) / short), Double(2 * longSide) / long)
        let gw = max(1, min(shownW, Int((Double(shownW) * scale).rounded())))
        let gh = max(1, min(shownH, Int((Double(shownH) * scale).rounded())))
        let turn = ExifOrientation.transform(orientation, width: Double(width), height: Double(height))
        var r = [Float](repeating: 0, count: gw * gh), g = r, b = r, n = r
        // A few samples a cell are plenty for an average; a large PNG decodes at full size.
        let step = max(1, max(width, height) / (max(gw, gh) * 4))
        for y in Swift.stride(from: step / 2, to: height, by: step) {
            for x in Swift.stride(from: step / 2, to: width, by: step) {
                let p = turn.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let cx = min(gw - 1, max(0, Int(p.x / Double(shownW) * Double(gw))))
                let cy = min(gh - 1, max(0, Int(p.y / Double(shownH) * Double(gh))))
                let w = words[y * width + x], paper = Float(255 - (w >> 24 & 0xFF))
                let cell = cy * gw + cx
                r[cell] += Float(w >> 16 & 0xFF) + paper
                g[cell] += Float(w >> 8 & 0xFF) + paper
                b[cell] += Float(w & 0xFF) + paper
                n[cell] += 255
            }
        }
        for i in n.indices where n[i] > 0 { r[i] /= n[i]; g[i] /= n[i]; b[i] /= n[i] }
        return Thumbnail(width: gw, height: gh, red: r, green: g, blue: b)
    }

    /// The relative luminance of a cell (WCAG), for contrast against text.
    public func luminance(_ i: Int) -> Double {
        func linear(_ c: Float) -> Double {
            let c = Double(c)
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red[i]) + 0.7152 * linear(green[i]) + 0.0722 * linear(blue[i])
    }
}

/// A thumbnail's cells in CIELAB once someone asks; shared by the thumbnail's copies.
private final class LabCells: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [CIELab]?

    func keep(_ cells: [CIELab]) { lock.withLock { value = cells } }

    func cells(of t: Thumbnail) -> [CIELab] {
        lock.withLock {
            if let value { return value }
            let made = t.red.indices.map { CIELab(t.red[$0], t.green[$0], t.blue[$0]) }
            value = made
            return made
        }
    }
}
