import Testing
import Foundation
import BookCompare
import BookTestSupport

@Suite struct PageComparerTests {
    @Test func identicalImagesTakeTheFastPath() {
        let page = Synthetic.render()
        #expect(Synthetic.inkPixels(page) > 500)
        let diff = PageComparer.compare(expected: page, actual: page)
        #expect(diff.status == .same)
        #expect(diff.identical)
        #expect(diff.differingPixels == 0 && diff.antialiasedPixels == 0 && diff.maxChannelDelta == 0)
        #expect(diff.boundingBox == nil && diff.mask == nil)
    }

    @Test(arguments: [(0.25, 0.0), (0.0, 0.25), (0.5, 0.0), (0.3, 0.3), (0.5, 0.5)])
    func subPixelOffsetOfADiagonalStrokeIsAntiAliasingNoise(dx: Double, dy: Double) {
        let expected = Synthetic.render()
        let actual = Synthetic.render(.init(lineOffset: (dx, dy)))
        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(!diff.identical)
        #expect(diff.maxChannelDelta > 20, "the offset must really change edge pixels")
        #expect(diff.status == .same, "\(diff.differingPixels) differing pixels at the default threshold")
        #expect(diff.antialiasedPixels > 0)
        // Counting anti-aliased pixels makes the same change a difference: the detector is what excuses it.
        let strict = PageComparer.compare(expected: expected, actual: actual, options: .init(includeAA: true))
        #expect(strict.status == .differs)
        #expect(strict.differingPixels == diff.differingPixels + diff.antialiasedPixels)
    }

    @Test(arguments: [40, 60, 100])
    func noiseOnTextEdgesIsAntiAliasingNoise(amount: Int) {
        let expected = Synthetic.render()
        let (actual, touched) = Synthetic.jitterTextEdges(expected, amount: amount)
        #expect(touched > 500, "the text has anti-aliased edges to disturb")
        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(diff.status == .same, "\(diff.differingPixels) differing, \(diff.antialiasedPixels) anti-aliased")
        #expect(diff.antialiasedPixels > touched / 2)
        #expect(PageComparer.compare(expected: expected, actual: actual, options: .init(includeAA: true)).status == .differs)
    }

    @Test func smallCoverageDifferencesAreUnderTheThreshold() {
        // A grey moving by fewer than 27 levels is below 35215 × 0.1² in YIQ: not even a candidate.
        let expected = Synthetic.render()
        let (actual, _) = Synthetic.jitterTextEdges(expected, amount: 24)
        let diff = PageComparer.compare(expected: expected, actual: actual, options: .init(includeAA: true))
        #expect(diff.status == .same && diff.differingPixels == 0 && diff.antialiasedPixels == 0)
        #expect(diff.maxChannelDelta == 24)
    }

    @Test(arguments: [(0.25, 0.0), (0.0, 0.5), (0.3, 0.3)])
    func subPixelShiftOfTextOutlinesIsAntiAliasingNoise(dx: Double, dy: Double) {
        let expected = Synthetic.render()
        let actual = Synthetic.render(.init(textOffset: (dx, dy)))
        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(diff.maxChannelDelta > 40)
        #expect(diff.status == .same, "\(diff.differingPixels) differing, \(diff.antialiasedPixels) anti-aliased")
        #expect(PageComparer.compare(expected: expected, actual: actual, options: .init(includeAA: true)).status == .differs)
    }

    @Test func jitteredStrokePixelsAreAntiAliasingNoise() {
        let expected = Synthetic.render()
        var actual = expected
        // Every grey edge pixel of the diagonal stroke a little darker, as another rasterizer's coverage might be.
        var touched = 0
        for y in 100..<190 {
            for x in 185..<310 {
                let p = expected.pixel(x: x, y: y)
                if p.red > 0x90 && p.red < 0xE0 {
                    actual.setPixel(x: x, y: y, red: p.red - 40, green: p.green - 40, blue: p.blue - 40)
                    touched += 1
                }
            }
        }
        #expect(touched > 20)
        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(diff.status == .same, "\(diff.differingPixels) differing, \(diff.antialiasedPixels) anti-aliased")
        #expect(diff.antialiasedPixels > 0)
    }

    @Test func textShiftedByTwoPixelsDiffersWithinTheLine() throws {
        let expected = Synthetic.render()
        let actual = Synthetic.render(.init(textOffset: (2, 0)))
        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(diff.status == .differs)
        #expect(diff.differingPixels > 100)
        let box = try #require(diff.boundingBox)
        // The differences lie within the text as drawn before and after the shift, and span most of it.
        let before = try #require(Synthetic.inkBox(expected, in: Synthetic.textBand))
        let after = try #require(Synthetic.inkBox(actual, in: Synthetic.textBand))
        let line = PixelRect(x: before.x, y: min(before.y, after.y), width: after.x + after.width - before.x,
                             height: max(before.y + before.height, after.y + after.height) - min(before.y, after.y))
        #expect(line.contains(box), "box \(box) outside the text line \(line)")
        #expect(box.width >= line.width - 4 && box.height >= line.height / 2, "box \(box) should span the line \(line)")
        let mask = try #require(diff.mask)
        #expect(mask.values.contains(PixelMask.different))
    }

    @Test func colourChangeOfAFilledAreaDiffers() throws {
        let expected = Synthetic.render()
        let actual = Synthetic.render(.init(fill: Synthetic.blue))
        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(diff.status == .differs)
        #expect(diff.boundingBox == Synthetic.panel)
        #expect(diff.differingPixels == Synthetic.panel.width * Synthetic.panel.height)
        #expect(diff.antialiasedPixels == 0)
        #expect(diff.maxChannelDelta == 0xE0 - 0x33)
        #expect(abs(diff.ratio - Double(diff.differingPixels) / Double(Synthetic.width * Synthetic.height)) < 1e-12)
    }

    @Test func sizeMismatchIsAVerdictNotACrash() {
        let diff = PageComparer.compare(expected: Synthetic.render(), actual: Synthetic.render(width: Synthetic.width + 1, height: Synthetic.height))
        #expect(diff.status == .sizeMismatch)
        #expect(diff.expectedSize == PixelSize(width: Synthetic.width, height: Synthetic.height))
        #expect(diff.actualSize == PixelSize(width: Synthetic.width + 1, height: Synthetic.height))
    }

    @Test func ignoreRegionMasksADifference() {
        let expected = Synthetic.render()
        let actual = Synthetic.render(.init(fill: Synthetic.blue))
        let region = IgnoreRegion(rect: PixelRect(x: 30, y: 100, width: 140, height: 80))
        let masked = PageComparer.compare(expected: expected, actual: actual, options: .init(ignore: [region]))
        #expect(masked.status == .same)
        #expect(masked.ignoredPixels == 140 * 80)
        #expect(masked.comparedPixels == Synthetic.width * Synthetic.height - 140 * 80)
        #expect(masked.maxChannelDelta == 0)

        // A region that covers only part of the change leaves the rest counted.
        let half = IgnoreRegion(rect: PixelRect(x: 40, y: 110, width: 60, height: 60))
        let partly = PageComparer.compare(expected: expected, actual: actual, options: .init(ignore: [half]))
        #expect(partly.status == .differs)
        #expect(partly.boundingBox == PixelRect(x: 100, y: 110, width: 60, height: 60))

        // A page-specific region applies to that page only.
        let elsewhere = IgnoreRegion(page: "page-002.png", rect: region.rect)
        let options = CompareOptions(ignore: [elsewhere])
        #expect(PageComparer.compare(expected: expected, actual: actual, options: options, page: "page-002.png").status == .same)
        #expect(PageComparer.compare(expected: expected, actual: actual, options: options, page: "page-001.png").status == .differs)
    }

    @Test func regionsParse() throws {
        #expect(try IgnoreRegion(parsing: "1,2,3,4") == IgnoreRegion(rect: PixelRect(x: 1, y: 2, width: 3, height: 4)))
        #expect(try IgnoreRegion(parsing: "page-003.png:10,20,30,40")
            == IgnoreRegion(page: "page-003.png", rect: PixelRect(x: 10, y: 20, width: 30, height: 40)))
        for bad in ["1,2,3", "1,2,0,4", "-1,2,3,4", "a,b,c,d", ":1,2,3,4", "1,2,3,4,5"] {
            #expect(throws: CompareError.self, "\(bad)") { try IgnoreRegion(parsing: bad) }
        }
    }

    @Test func toleranceTreatsSmallChannelDifferencesAsEqual() {
        let expected = Synthetic.render()
        var actual = expected
        for x in 0..<50 {
            let p = actual.pixel(x: x, y: 5)
            actual.setPixel(x: x, y: 5, red: p.red - 3, green: p.green, blue: p.blue + 3)
        }
        // Threshold 0 makes every changed pixel a difference…
        let exact = PageComparer.compare(expected: expected, actual: actual, options: .init(threshold: 0))
        #expect(exact.status == .differs && exact.differingPixels == 50 && exact.maxChannelDelta == 3)
        // …unless the change is within the per-channel tolerance.
        let tolerant = PageComparer.compare(expected: expected, actual: actual, options: .init(threshold: 0, tolerance: 3))
        #expect(tolerant.status == .same && tolerant.differingPixels == 0 && tolerant.maxChannelDelta == 3)
        let tooTight = PageComparer.compare(expected: expected, actual: actual, options: .init(threshold: 0, tolerance: 2))
        #expect(tooTight.status == .differs)
    }

    @Test func maxDiffPixelsAndRatioAllowSomeDifferences() {
        let expected = RGBAImage(width: 100, height: 100, red: 255, green: 255, blue: 255)
        var actual = expected
        for x in 0..<10 { actual.setPixel(x: x * 7, y: 50, red: 0, green: 0, blue: 0) }
        #expect(PageComparer.compare(expected: expected, actual: actual).status == .differs)
        #expect(PageComparer.compare(expected: expected, actual: actual, options: .init(maxDiffPixels: 10)).status == .same)
        #expect(PageComparer.compare(expected: expected, actual: actual, options: .init(maxDiffPixels: 9)).status == .differs)
        #expect(PageComparer.compare(expected: expected, actual: actual, options: .init(maxDiffRatio: 0.001)).status == .same)
        #expect(PageComparer.compare(expected: expected, actual: actual, options: .init(maxDiffRatio: 0.0009)).status == .differs)
        // With both, the larger allowance wins.
        let both = PageComparer.compare(expected: expected, actual: actual, options: .init(maxDiffPixels: 10, maxDiffRatio: 0.0001))
        #expect(both.status == .same && both.allowedDifferingPixels == 10 && both.differingPixels == 10)
    }

    @Test func translucentPixelsAreBlendedWithWhite() {
        // pixelmatch's own check: half-transparent black over white looks like opaque mid grey.
        let a = RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 128])
        let b = RGBAImage(width: 1, height: 1, pixels: [127, 127, 127, 255])
        #expect(PageComparer.compare(expected: a, actual: b).differingPixels == 0)
        #expect(PageComparer.compare(expected: a, actual: b, options: .init(checkerboard: true)).differingPixels == 1)
    }

    @Test func optionsAreValidated() {
        #expect(throws: CompareError.self) { try CompareOptions(threshold: 1.5).validate() }
        #expect(throws: CompareError.self) { try CompareOptions(tolerance: 256).validate() }
        #expect(throws: CompareError.self) { try CompareOptions(maxDiffPixels: -1).validate() }
        #expect(throws: CompareError.self) { try CompareOptions(maxDiffRatio: 2).validate() }
        #expect(throws: Never.self) { try CompareOptions().validate() }
    }

    @Test func diffPanelMarksDifferencesRedAndAntiAliasingYellow() throws {
        let expected = Synthetic.render()
        let actual = Synthetic.render(.init(lineOffset: (0.4, 0), fill: Synthetic.blue))
        let diff = PageComparer.compare(expected: expected, actual: actual)
        let mask = try #require(diff.mask)
        let panel = DiffImage.panel(expected: expected, mask: mask)
        #expect(panel.width == expected.width && panel.height == expected.height)
        let inside = panel.pixel(x: Synthetic.panel.x + 5, y: Synthetic.panel.y + 5)
        #expect(inside.red == 255 && inside.green == 0 && inside.blue == 0)
        var yellow = 0
        for y in 0..<panel.height {
            for x in 0..<panel.width where mask[x, y] == PixelMask.antialiased {
                let p = panel.pixel(x: x, y: y)
                if p.red == 255 && p.green == 255 && p.blue == 0 { yellow += 1 }
            }
        }
        #expect(yellow == diff.antialiasedPixels && yellow > 0)
        // Unchanged pixels are a faint grey copy: paper stays near white.
        let paper = panel.pixel(x: 2, y: 190)
        #expect(paper.red == paper.green && paper.green == paper.blue && paper.red > 240)

        let strip = DiffImage.sideBySide(expected: expected, actual: actual, diff: diff)
        #expect(strip.width == expected.width * 3 && strip.height == expected.height)
        #expect(strip.pixel(x: Synthetic.panel.x + 5, y: Synthetic.panel.y + 5).red == 0xE0)
        #expect(strip.pixel(x: 2 * expected.width + Synthetic.panel.x + 5, y: Synthetic.panel.y + 5).blue == 0xAA)
    }

    @Test func pngRoundTripKeepsStraightAlpha() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A premultiplying decoder would turn (200, 100, 50) at alpha 3 into something else entirely.
        let image = RGBAImage(width: 2, height: 1, pixels: [200, 100, 50, 3, 10, 20, 30, 255])
        let url = dir.appendingPathComponent("a.png")
        try image.writePNG(to: url)
        #expect(try RGBAImage(contentsOf: url) == image)
        let opaque = Synthetic.render()
        try opaque.writePNG(to: url)
        #expect(try RGBAImage(contentsOf: url) == opaque)
        #expect(throws: CompareError.self) { try RGBAImage(pngData: Data("not a png".utf8)) }
    }

    /// A full page (8.25 × 11 in at 150 dpi) with a band of text-like dots moved by a pixel and a
    /// changed block: the difference is found, bounded by what changed, and the untouched page
    /// takes the exact fast path.
    @Test func aFullPageDifferenceIsFoundWhereThePixelsChanged() throws {
        let width = 1238, height = 1650
        var expected = RGBAImage(width: width, height: height, red: 0xF6, green: 0xF1, blue: 0xE8)
        for y in stride(from: 100, to: 1500, by: 40) {
            for x in stride(from: 100, to: 1100, by: 3) { expected.setPixel(x: x, y: y, red: 0x2F, green: 0x2A, blue: 0x25) }
        }
        var actual = expected
        for y in stride(from: 100, to: 1500, by: 40) {
            for x in stride(from: 100, to: 1100, by: 3) {
                actual.setPixel(x: x, y: y, red: 0xF6, green: 0xF1, blue: 0xE8)
                actual.setPixel(x: x + 1, y: y, red: 0x2F, green: 0x2A, blue: 0x25)
            }
        }
        let block = PixelRect(x: 200, y: 1550, width: 200, height: 50)
        for y in block.y..<(block.y + block.height) {
            for x in block.x..<(block.x + block.width) { actual.setPixel(x: x, y: y, red: 0x33, green: 0x66, blue: 0xAA) }
        }
        // Where the pixels changed, found plainly.
        var changed = 0, left = width, top = height, right = 0, bottom = 0
        for i in 0..<(width * height) where expected.pixels[(4 * i)..<(4 * i + 4)] != actual.pixels[(4 * i)..<(4 * i + 4)] {
            let x = i % width, y = i / width
            changed += 1
            left = min(left, x); top = min(top, y); right = max(right, x + 1); bottom = max(bottom, y + 1)
        }
        let changedArea = PixelRect(x: left, y: top, width: right - left, height: bottom - top)

        let diff = PageComparer.compare(expected: expected, actual: actual)
        #expect(diff.status == .differs)
        #expect(!diff.identical)
        #expect(diff.comparedPixels == width * height)
        #expect(diff.differingPixels >= block.width * block.height, "a flat block is no anti-aliasing")
        #expect(diff.differingPixels + diff.antialiasedPixels <= changed)
        let box = try #require(diff.boundingBox)
        #expect(box.contains(block) && changedArea.contains(box), "\(box) around \(block), inside \(changedArea)")

        let same = PageComparer.compare(expected: expected, actual: expected)
        #expect(same.status == .same && same.identical && same.differingPixels == 0)
    }
}
