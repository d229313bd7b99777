// The colour metric and anti-aliasing detector below are a port of pixelmatch 7.2.0's
// index.js (https://github.com/mapbox/pixelmatch, ISC licence, copyright Mapbox), the last
// release that measures colour in YIQ; later versions moved to OKLab. Each function keeps
// pixelmatch's name, arithmetic and order of operations, so the same pixels give the same
// verdicts (checked against pixelmatch's own test fixtures). Images are straight RGBA bytes.
//
// ISC License. Copyright (c) 2025, Mapbox. Permission to use, copy, modify, and/or distribute
// this software for any purpose with or without fee is hereby granted, provided that the above
// copyright notice and this permission notice appear in all copies. THE SOFTWARE IS PROVIDED
// "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS SOFTWARE INCLUDING ALL
// IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
// ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING
// FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.

enum PixelMatch {
    /// The largest value `colorDelta` can return (black against white); the threshold is a
    /// fraction of its square root, so the limit compared against is 35215 · t².
    static let maxYIQDelta = 35215.0

    static func maxDelta(threshold: Double) -> Double { maxYIQDelta * threshold * threshold }

    /// The background a translucent pixel is composited over: white, or pixelmatch 7's
    /// pseudo-random per-channel checkerboard keyed on the byte offset `k`.
    @inline(__always)
    static func background(_ k: Int, checkerboard: Bool) -> (Double, Double, Double) {
        guard checkerboard else { return (255, 255, 255) }
        let kd = Double(k)
        return (48 + 159 * Double(k % 2),
                48 + 159 * Double(Int(kd / 1.618033988749895) % 2),
                48 + 159 * Double(Int(kd / 2.618033988749895) % 2))
    }

    /// Squared YIQ distance between pixel `k` of `img1` and pixel `m` of `img2` (byte offsets),
    /// after Kotsarenko and Ramos, "Measuring perceived color difference using YIQ NTSC
    /// transmission color space in mobile applications"; negative when the `img2` pixel is
    /// darker. The caller has already found the two pixels unequal.
    @inline(__always)
    static func colorDelta(_ img1: UnsafePointer<UInt8>, _ img2: UnsafePointer<UInt8>, _ k: Int, _ m: Int,
                           checkerboard: Bool) -> Double {
        let r1 = Double(img1[k]), g1 = Double(img1[k + 1]), b1 = Double(img1[k + 2]), a1 = Double(img1[k + 3])
        let r2 = Double(img2[m]), g2 = Double(img2[m + 1]), b2 = Double(img2[m + 2]), a2 = Double(img2[m + 3])
        var dr = r1 - r2
        var dg = g1 - g2
        var db = b1 - b2
        let da = a1 - a2
        if a1 < 255 || a2 < 255 {
            let (rb, gb, bb) = background(k, checkerboard: checkerboard)
            dr = (r1 * a1 - r2 * a2 - rb * da) / 255
            dg = (g1 * a1 - g2 * a2 - gb * da) / 255
            db = (b1 * a1 - b2 * a2 - bb * da) / 255
        }
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    /// Luma difference between the centre pixel (its bytes passed in, at offset `k`) and the
    /// neighbour at offset `m`.
    @inline(__always)
    static func brightnessDelta(_ img: UnsafePointer<UInt8>, _ k: Int, _ m: Int,
                                _ r1: Double, _ g1: Double, _ b1: Double, _ a1: Double, checkerboard: Bool) -> Double {
        let r2 = Double(img[m]), g2 = Double(img[m + 1]), b2 = Double(img[m + 2]), a2 = Double(img[m + 3])
        var dr = r1 - r2
        var dg = g1 - g2
        var db = b1 - b2
        let da = a1 - a2
        if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }
        if a1 < 255 || a2 < 255 {
            let (rb, gb, bb) = background(k, checkerboard: checkerboard)
            dr = (r1 * a1 - r2 * a2 - rb * da) / 255
            dg = (g1 * a1 - g2 * a2 - gb * da) / 255
            db = (b1 * a1 - b2 * a2 - bb * da) / 255
        }
        return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    }

    @inline(__always)
    static func samePixel(_ p: UnsafePointer<UInt8>, _ i: Int, _ j: Int) -> Bool {
        p[i] == p[j] && p[i + 1] == p[j + 1] && p[i + 2] == p[j + 2] && p[i + 3] == p[j + 3]
    }

    /// Whether pixel (x1, y1) of `img` looks like anti-aliasing, after V. Vysniauskas, "Anti-aliased
    /// Pixel and Intensity Slope Detector" (2009): its neighbours hold both a darker and a brighter
    /// pixel, at most two equal ones, and the darkest or brightest of them sits in a flat area
    /// (3+ equal neighbours) in both images. `a` is `img`; `b` the other image.
    static func antialiased(_ img: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                            _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, checkerboard: Bool) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos4 = (y1 * width + x1) * 4
        let cr = Double(img[pos4]), cg = Double(img[pos4 + 1]), cb = Double(img[pos4 + 2]), ca = Double(img[pos4 + 3])
        // A pixel on the image's edge counts one equal neighbour from the start.
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0

        var x = x0
        while x <= x2 {
            var y = y0
            while y <= y2 {
                if x == x1 && y == y1 { y += 1; continue }
                let delta = brightnessDelta(img, pos4, (y * width + x) * 4, cr, cg, cb, ca, checkerboard: checkerboard)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
                y += 1
            }
            x += 1
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(a, minX, minY, width, height) && hasManySiblings(b, minX, minY, width, height))
            || (hasManySiblings(a, maxX, maxY, width, height) && hasManySiblings(b, maxX, maxY, width, height))
    }

    /// Whether pixel (x1, y1) has 3+ neighbours of exactly its colour.
    static func hasManySiblings(_ img: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let centre = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var x = x0
        while x <= x2 {
            var y = y0
            while y <= y2 {
                if !(x == x1 && y == y1) {
                    if samePixel(img, centre, (y * width + x) * 4) { zeroes += 1 }
                    if zeroes > 2 { return true }
                }
                y += 1
            }
            x += 1
        }
        return false
    }

    /// The diff output's background: the pixel's luma faded towards white, `alpha` being how much
    /// of the original shows (pixelmatch's `drawGrayPixel`, truncated as a Uint8Array store does).
    @inline(__always)
    static func grayValue(_ img: UnsafePointer<UInt8>, _ i: Int, alpha: Double) -> UInt8 {
        let luma = Double(img[i]) * 0.29889531 + Double(img[i + 1]) * 0.58662247 + Double(img[i + 2]) * 0.11448223
        let value = 255 + (luma - 255) * alpha * Double(img[i + 3]) / 255
        return UInt8(max(0, min(255, value)))
    }
}
