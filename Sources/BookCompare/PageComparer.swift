import Foundation

/// What comparing one pair of images found.
public struct PageDiff: Sendable {
    public enum Status: String, Sendable, Codable {
        case same
        case differs
        case sizeMismatch = "size-mismatch"
    }

    public var status: Status
    public var expectedSize: PixelSize
    public var actualSize: PixelSize
    /// The two pixel buffers were byte for byte equal, so nothing else was looked at.
    public var identical: Bool
    /// Pixels over the threshold that are not anti-aliasing (or all of them with `includeAA`).
    public var differingPixels: Int
    /// Pixels over the threshold excused as anti-aliasing.
    public var antialiasedPixels: Int
    /// Pixels inside ignore regions.
    public var ignoredPixels: Int
    /// Pixels compared: the page's area less the ignored ones.
    public var comparedPixels: Int
    /// How many differing pixels the options allowed on this page.
    public var allowedDifferingPixels: Int
    /// The largest difference of any channel (alpha included) outside ignore regions, 0…255.
    public var maxChannelDelta: Int
    /// The smallest rectangle holding every differing pixel.
    public var boundingBox: PixelRect?
    /// Each pixel's verdict (`PixelMask`), kept only when the page differs so its diff image can
    /// be drawn.
    public var mask: PixelMask?

    /// Differing pixels as a fraction of the pixels compared.
    public var ratio: Double {
        comparedPixels > 0 ? Double(differingPixels) / Double(comparedPixels) : 0
    }

    static func sizeMismatch(_ expected: PixelSize, _ actual: PixelSize) -> PageDiff {
        PageDiff(status: .sizeMismatch, expectedSize: expected, actualSize: actual, identical: false,
                 differingPixels: 0, antialiasedPixels: 0, ignoredPixels: 0, comparedPixels: 0,
                 allowedDifferingPixels: 0, maxChannelDelta: 0, boundingBox: nil, mask: nil)
    }
}

/// One byte per pixel: what the comparison made of it.
public struct PixelMask: Sendable {
    public static let same: UInt8 = 0
    public static let different: UInt8 = 1
    public static let antialiased: UInt8 = 2
    public static let ignored: UInt8 = 3

    public let width: Int
    public let height: Int
    public var values: [UInt8]

    public subscript(x: Int, y: Int) -> UInt8 { values[y * width + x] }
}

/// Compares two images of the same size: an exact fast path, then the per-channel tolerance,
/// then pixelmatch's YIQ threshold with anti-aliasing detection.
public enum PageComparer {
    /// Compares `actual` against `expected`. `page` names the page for page-specific ignore
    /// regions. Never fails: images of different sizes give a `.sizeMismatch` verdict.
    public static func compare(expected: RGBAImage, actual: RGBAImage, options: CompareOptions = .init(),
                               page: String? = nil) -> PageDiff {
        guard expected.width == actual.width, expected.height == actual.height else {
            return .sizeMismatch(expected.size, actual.size)
        }
        let width = expected.width, height = expected.height
        let regions = options.ignoreRegions(forPage: page).compactMap { $0.clamped(width: width, height: height) }
        var ignoreMap: [UInt8]? = nil
        var ignoredPixels = 0
        if !regions.isEmpty {
            var map = [UInt8](repeating: 0, count: width * height)
            map.withUnsafeMutableBufferPointer { m in
                for r in regions {
                    for y in r.y..<(r.y + r.height) {
                        let row = y * width
                        for x in r.x..<(r.x + r.width) where m[row + x] == 0 {
                            m[row + x] = 1
                            ignoredPixels += 1
                        }
                    }
                }
            }
            ignoreMap = map
        }
        let compared = width * height - ignoredPixels
        var result = PageDiff(status: .same, expectedSize: expected.size, actualSize: actual.size, identical: false,
                              differingPixels: 0, antialiasedPixels: 0, ignoredPixels: ignoredPixels,
                              comparedPixels: compared,
                              allowedDifferingPixels: options.allowedDifferingPixels(comparedPixels: compared),
                              maxChannelDelta: 0, boundingBox: nil, mask: nil)
        let byteCount = width * height * 4
        let identical = expected.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                byteCount == 0 || memcmp(a.baseAddress!, b.baseAddress!, byteCount) == 0
            }
        }
        if identical {
            result.identical = true
            return result
        }

        var mask = [UInt8](repeating: PixelMask.same, count: width * height)
        let maxDelta = PixelMatch.maxDelta(threshold: options.threshold)
        let tolerance = options.tolerance
        let includeAA = options.includeAA
        let checkerboard = options.checkerboard
        var differing = 0, antialiased = 0, maxChannel = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

        expected.pixels.withUnsafeBufferPointer { aBuffer in
            actual.pixels.withUnsafeBufferPointer { bBuffer in
                mask.withUnsafeMutableBufferPointer { maskBuffer in
                    let a = aBuffer.baseAddress!, b = bBuffer.baseAddress!, out = maskBuffer.baseAddress!
                    let rowBytes = width * 4
                    for y in 0..<height {
                        let rowStart = y * rowBytes
                        // Most of a page is unchanged: whole equal rows are skipped at memcmp speed.
                        if memcmp(a + rowStart, b + rowStart, rowBytes) == 0 { continue }
                        for x in 0..<width {
                            let pos = rowStart + x * 4
                            if a[pos] == b[pos] && a[pos + 1] == b[pos + 1] && a[pos + 2] == b[pos + 2]
                                && a[pos + 3] == b[pos + 3] { continue }
                            let i = y * width + x
                            if let ignoreMap, ignoreMap[i] != 0 { continue }
                            let channel = max(max(absDiff(a[pos], b[pos]), absDiff(a[pos + 1], b[pos + 1])),
                                              max(absDiff(a[pos + 2], b[pos + 2]), absDiff(a[pos + 3], b[pos + 3])))
                            if channel > maxChannel { maxChannel = channel }
                            if channel <= tolerance { continue }
                            let delta = PixelMatch.colorDelta(a, b, pos, pos, checkerboard: checkerboard)
                            guard abs(delta) > maxDelta else { continue }
                            if !includeAA
                                && (PixelMatch.antialiased(a, x, y, width, height, a, b, checkerboard: checkerboard)
                                    || PixelMatch.antialiased(b, x, y, width, height, b, a, checkerboard: checkerboard)) {
                                out[i] = PixelMask.antialiased
                                antialiased += 1
                            } else {
                                out[i] = PixelMask.different
                                differing += 1
                                if x < minX { minX = x }
                                if x > maxX { maxX = x }
                                if y < minY { minY = y }
                                if y > maxY { maxY = y }
                            }
                        }
                    }
                }
            }
        }
        for r in regions {
            for y in r.y..<(r.y + r.height) {
                for x in r.x..<(r.x + r.width) { mask[y * width + x] = PixelMask.ignored }
            }
        }
        result.differingPixels = differing
        result.antialiasedPixels = antialiased
        result.maxChannelDelta = maxChannel
        if differing > 0 {
            result.boundingBox = PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        }
        if differing > result.allowedDifferingPixels {
            result.status = .differs
            result.mask = PixelMask(width: width, height: height, values: mask)
        }
        return result
    }

    @inline(__always)
    private static func absDiff(_ p: UInt8, _ q: UInt8) -> Int {
        p > q ? Int(p &- q) : Int(q &- p)
    }
}
