import Foundation

/// The pictures a person looks at: pixelmatch's diff output and the expected | diff | actual strip.
public enum DiffImage {
    /// Shown where a panel has no image (a missing page, or beyond the smaller page of a size mismatch).
    static let emptyGrey: UInt8 = 0xD0

    /// pixelmatch's diff output: the expected image as faint grey (`fade` is how much of it shows),
    /// differing pixels red, anti-aliased ones yellow; ignored regions are tinted blue.
    public static func panel(expected: RGBAImage, mask: PixelMask, fade: Double = 0.1) -> RGBAImage {
        precondition(mask.width == expected.width && mask.height == expected.height, "mask and image differ in size")
        let count = expected.width * expected.height
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
            expected.pixels.withUnsafeBufferPointer { source in
                mask.values.withUnsafeBufferPointer { verdicts in
                    let img = source.baseAddress!
                    // Pages are mostly runs of one colour (paper, a flat panel): reusing the grey of
                    // the previous pixel when the colour repeats skips most of the arithmetic.
                    var lastColour: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                    var lastGrey = PixelMatch.grayValue(img, 0, alpha: fade)
                    if count > 0 { lastColour = (img[0], img[1], img[2], img[3]) }
                    for i in 0..<count {
                        let o = i * 4
                        let verdict = verdicts[i]
                        if verdict == PixelMask.different {
                            out[o] = 255; out[o + 1] = 0; out[o + 2] = 0
                        } else if verdict == PixelMask.antialiased {
                            out[o] = 255; out[o + 1] = 255; out[o + 2] = 0
                        } else {
                            if img[o] != lastColour.0 || img[o + 1] != lastColour.1 || img[o + 2] != lastColour.2
                                || img[o + 3] != lastColour.3 {
                                lastColour = (img[o], img[o + 1], img[o + 2], img[o + 3])
                                lastGrey = PixelMatch.grayValue(img, o, alpha: fade)
                            }
                            let v = lastGrey
                            if verdict == PixelMask.ignored {
                                out[o] = v &- min(v, 60); out[o + 1] = v &- min(v, 30); out[o + 2] = v
                            } else {
                                out[o] = v; out[o + 1] = v; out[o + 2] = v
                            }
                        }
                        out[o + 3] = 255
                    }
                }
            }
            initialized = count * 4
        }
        return RGBAImage(width: expected.width, height: expected.height, pixels: pixels)
    }

    /// Three panels side by side, each as large as the largest image: expected | diff | actual.
    /// Translucent pixels are shown over white; a missing image leaves its panel grey.
    public static func sideBySide(expected: RGBAImage?, diff: RGBAImage?, actual: RGBAImage?) -> RGBAImage {
        let images = [expected, diff, actual]
        let panelWidth = max(1, images.map { $0?.width ?? 0 }.max() ?? 1)
        let panelHeight = max(1, images.map { $0?.height ?? 0 }.max() ?? 1)
        let width = panelWidth * 3
        var pixels = [UInt8](repeating: emptyGrey, count: width * panelHeight * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            var i = 3
            while i < out.count {
                out[i] = 255
                i += 4
            }
            for (index, image) in images.enumerated() {
                guard let image else { continue }
                let opaque = !image.hasTranslucency
                image.pixels.withUnsafeBufferPointer { source in
                    for y in 0..<image.height {
                        if opaque {
                            let rowBytes = image.width * 4
                            (out.baseAddress! + (y * width + index * panelWidth) * 4)
                                .update(from: source.baseAddress! + y * rowBytes, count: rowBytes)
                            continue
                        }
                        var s = y * image.width * 4
                        var o = (y * width + index * panelWidth) * 4
                        for _ in 0..<image.width {
                            let a = UInt32(source[s + 3])
                            if a == 255 {
                                out[o] = source[s]; out[o + 1] = source[s + 1]; out[o + 2] = source[s + 2]
                            } else {
                                out[o] = overWhite(source[s], a)
                                out[o + 1] = overWhite(source[s + 1], a)
                                out[o + 2] = overWhite(source[s + 2], a)
                            }
                            s += 4
                            o += 4
                        }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: panelHeight, pixels: pixels)
    }

    /// The strip for a compared page: the diff panel is drawn only when the page differs.
    public static func sideBySide(expected: RGBAImage?, actual: RGBAImage?, diff: PageDiff?) -> RGBAImage {
        var panel: RGBAImage? = nil
        if let expected, let mask = diff?.mask { panel = self.panel(expected: expected, mask: mask) }
        return sideBySide(expected: expected, diff: panel, actual: actual)
    }

    @inline(__always)
    private static func overWhite(_ c: UInt8, _ a: UInt32) -> UInt8 {
        UInt8((UInt32(c) * a + 255 * (255 - a) + 127) / 255)
    }
}
