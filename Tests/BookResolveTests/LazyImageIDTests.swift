import Foundation
import Testing
import BookBase
@testable import BookResolve
import BookTestSupport

/// A JPEG file that ends with its end-of-image marker is probed from its header and hashed later;
/// whatever the way, the asset must say what the whole file says.
@Suite("Image files probed from their headers")
struct LazyImageIDTests {
    private func files(_ named: [String: Data], _ body: (URL, AssetLocator) throws -> Void) throws {
        try TestImages.inTemporaryDirectory { dir in
            for (name, data) in named { try data.write(to: dir.appendingPathComponent(name)) }
            try body(dir, AssetLocator(folder: dir))
        }
    }

    private func asset(_ locator: AssetLocator, _ path: String) throws -> ImageAsset {
        guard case .found(let asset) = try locator.load(.path(path), jsonPath: "$.x") else {
            Issue.record("\(path) not found")
            throw CancellationError()
        }
        return asset
    }

    private static func samples() throws -> [String: Data] {
        [
            "baseline.jpg": try TestImages.gradientJPEG(width: 96, height: 64),
            "progressive.jpg": try TestImages.gradientJPEG(width: 64, height: 96, ["-progressive"]),
            "grey.jpg": try TestImages.redJPEG(width: 40, height: 30, ["-grayscale"]),
            "rotated.jpg": TestImages.withExifOrientation(try TestImages.redJPEG(width: 64, height: 48), 6),
            "cmyk.jpg": TestImages.flatJPEG(width: 8, height: 8, components: [0, 128, 255, 32], adobeTransform: 2),
            // A header longer than the buffer it is first read into, and one just shorter.
            "long-header.jpg": TestImages.withComments(try TestImages.gradientJPEG(width: 64, height: 48), segments: 3, size: 50_000),
            "near-header.jpg": TestImages.withComments(try TestImages.gradientJPEG(width: 400, height: 300), segments: 2,
                                                       size: (AssetLocator.headerBuffer - 4_000) / 2),
        ]
    }

    @Test func headerProbeAndLaterHashEqualTheWholeFileRead() throws {
        let samples = try Self.samples()
        try files(samples) { dir, locator in
            for (name, data) in samples {
                let lazy = try #require(locator.probedFromHeader(name),
                                        "\(name) was not probed from its header")
                #expect(lazy.info == (try ImageProbe.probe(data)), "\(name)")
                #expect(lazy.id == ContentHash.hex(data), "\(name)")
                #expect(try asset(locator, name).id == ContentHash.hex(data), "\(name) through load")
            }
        }
    }

    /// Bytes this thread has had from read calls so far (Linux's per-thread I/O accounting).
    private func bytesReadByThisThread() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") }, "\(text)")
        return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// The header probe reads the header, not the picture: a photo's megabytes are read once, later,
    /// when it is hashed or copied into the PDF.
    @Test func aHeaderProbeReadsTheHeaderNotTheFile() throws {
        var seed: UInt32 = 1
        let noise = TestImages.ppm(width: 1000, height: 1000) { _, _ in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (UInt8(truncatingIfNeeded: seed >> 24), UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 8))
        }
        let data = try TestImages.cjpeg(noise)
        try #require(data.count > 1_000_000, "\(data.count) bytes: too small to tell a header read from a whole one")
        try files(["photo.jpg": data]) { _, locator in
            let before = try bytesReadByThisThread()
            let asset = try #require(locator.probedFromHeader("photo.jpg"))
            let read = try bytesReadByThisThread() - before
            #expect(asset.info == (try ImageProbe.probe(data)))
            #expect(read < data.count / 8, "\(read) of \(data.count) bytes read to probe the header")
        }
    }

    @Test func hashedAheadOnOtherThreadsWhileAskedForHere() throws {
        var samples = try Self.samples()
        for i in 0..<12 { samples["big\(i).jpg"] = try TestImages.gradientJPEG(width: 400 + i, height: 300) }
        try files(samples) { dir, locator in
            let names = samples.keys.sorted()
            let assets = try names.map { try asset(locator, $0) }
            ImageAsset.hashAhead(assets, threads: 3)
            // Asked for from the other end at once: some are hashed here, some waited for.
            let ids = Results(count: assets.count)
            DispatchQueue.concurrentPerform(iterations: assets.count) { i in
                let k = assets.count - 1 - i
                ids[k] = assets[k].id
            }
            for (k, name) in names.enumerated() {
                #expect(ids[k] == ContentHash.hex(samples[name]!), "\(name)")
                #expect(assets[k].id == ids[k], "\(name) asked for twice")
            }
        }
    }

    @Test func anythingElseIsReadWholeAsBefore() throws {
        var trailing = try TestImages.gradientJPEG(width: 64, height: 64)
        trailing.append(Data(repeating: 0, count: 64))
        let png = try TestImages.convert(["-size", "8x6", "xc:red"], output: "PNG24:out.png")
        let named = ["trailing.jpg": trailing, "picture.png": png, "notes.txt": Data("not an image\n".utf8)]
        try files(named) { dir, locator throws in
            for name in named.keys {
                #expect(locator.probedFromHeader(name) == nil, "\(name)")
            }
            #expect(try asset(locator, "trailing.jpg").id == ContentHash.hex(trailing))
            #expect(try asset(locator, "picture.png").id == ContentHash.hex(png))
            #expect(throws: ResolveError.self) { _ = try locator.load(.path("notes.txt"), jsonPath: "$.pages[0].image") }
        }
    }

    @Test func aJPEGCutShortIsStillReportedWhenLoaded() throws {
        let whole = try TestImages.gradientJPEG(width: 64, height: 64)
        try files(["cut.jpg": whole.prefix(whole.count - 40)]) { dir, locator in
            #expect(locator.probedFromHeader("cut.jpg") == nil)
            do {
                _ = try locator.load(.path("cut.jpg"), jsonPath: "$.pages[2].image")
                Issue.record("a truncated JPEG resolved")
            } catch {
                let message = "\(error)"
                #expect(message.contains("$.pages[2].image") && message.contains("truncated"), "\(message)")
            }
        }
    }

    @Test func aFileChangedAfterItWasProbedGetsAnotherID() throws {
        let first = try TestImages.gradientJPEG(width: 64, height: 64)
        try files(["photo.jpg": first]) { dir, locator in
            let asset = try asset(locator, "photo.jpg")
            try first.prefix(100).write(to: dir.appendingPathComponent("photo.jpg"))
            #expect(asset.id != ContentHash.hex(first))
            #expect(asset.openFile() == nil, "the size check refuses it when it is drawn")
        }
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String]
    init(count: Int) { values = Array(repeating: "", count: count) }
    subscript(i: Int) -> String {
        get { lock.withLock { values[i] } }
        set { lock.withLock { values[i] = newValue } }
    }
}
