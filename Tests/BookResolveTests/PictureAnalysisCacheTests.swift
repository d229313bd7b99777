import Foundation
import Testing
@testable import BookResolve
import BookModel
import BookTestSupport

/// A picture's analysis (thumbnail, subject, decoding check) is kept by content in the user's
/// cache and read back instead of decoding the picture again; an entry that does not hold is
/// made again; a picture whose subject cannot matter is not analysed.
@Suite struct PictureAnalysisCacheTests {
    /// A book folder with a disc picture, used by an illustration page (cropped: its subject
    /// matters) or by a photo page (shown whole: it does not).
    func book(photo: Bool, in dir: URL) throws -> Book {
        let picture = try TestImages.convert(["-size", "300x400", "gradient:#BFE3F5-#F3E9D0", "-fill", "#D9622B",
                                              "-draw", "circle 230,320 266,320"], output: "out.jpg")
        try picture.write(to: dir.appendingPathComponent("disc.jpg"))
        let page = photo ? Page(PhotoPage(image: .path("disc.jpg"), caption: "A disc"))
                         : Page(IllustrationPage(image: .path("disc.jpg"), text: "A disc"))
        return Book(kind: .storybook, title: "Discs", pages: [page])
    }

    func resolve(_ book: Book, _ dir: URL, cache: PictureAnalysisCache) throws -> ResolvedBook {
        try Resolver(templatesDirectory: Repository.resources.templates, options: .init(threads: 2, analysisCache: cache))
            .resolve(book, folder: dir)
    }

    @Test func anAnalysisIsReadBackInsteadOfMadeAgain() throws {
        let dir = try temporaryDirectory("analysis-cache")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = PictureAnalysisCache(folder: dir.appendingPathComponent("cache"))
        let book = try book(photo: false, in: dir)
        let first = try resolve(book, dir, cache: cache)
        let subject = try #require(first.pages[0].subject)
        let id = try #require(first.pages[0].image.asset?.id)
        #expect(subject.source == .estimated && subject.box.midX > 0.6, "the disc is at the lower right: \(subject.box)")
        #expect(first.decodedPictures == [id])
        let kept = try #require(cache.read(id))
        #expect(kept.decodes && kept.thumbnail != nil && kept.estimate == nil)
        // The estimate is kept beside it, for this picture and this book's main character (none).
        let estimated = try #require(cache.readEstimated(id, character: nil))
        #expect(estimated.estimate == subject && estimated.thumbnail == kept.thumbnail)
        #expect(cache.readEstimated(id, character: String(repeating: "e", count: 32)) == nil, "another character's estimate is its own")

        // A mirrored thumbnail: its disc is at the lower left.
        let t = try #require(kept.thumbnail)
        func mirrored(_ c: [Float]) -> [Float] {
            (0..<t.height).flatMap { y in (0..<t.width).reversed().map { x in c[y * t.width + x] } }
        }
        let flipped = Thumbnail(width: t.width, height: t.height, red: mirrored(t.red), green: mirrored(t.green), blue: mirrored(t.blue))

        // An estimate entry that holds is used as it is, not made again.
        cache.writeEstimated(PictureAnalysis(decodes: true, thumbnail: t, estimate: SubjectEstimator.estimate(flipped)),
                             for: id, character: nil)
        let second = try resolve(book, dir, cache: cache)
        #expect((second.pages[0].subject?.box.midX ?? 1) < 0.4, "\(String(describing: second.pages[0].subject?.box))")
        #expect(second.decodedPictures == [id])

        // Without one, the estimate is made from the kept thumbnail, not from the picture.
        try FileManager.default.removeItem(at: cache.estimateEntry(for: id, character: nil))
        var forged = kept
        forged.thumbnail = flipped
        cache.write(forged, for: id)
        let third = try resolve(book, dir, cache: cache)
        #expect((third.pages[0].subject?.box.midX ?? 1) < 0.4, "\(String(describing: third.pages[0].subject?.box))")

        // A damaged entry is never trusted: the picture is analysed again and the entries rewritten.
        for file in [cache.entry(for: id), cache.estimateEntry(for: id, character: nil)] {
            var bytes = try Data(contentsOf: file)
            bytes[bytes.count - 5] ^= 0x40
            try bytes.write(to: file)
        }
        #expect(cache.read(id) == nil && cache.readEstimated(id, character: nil) == nil)
        let fourth = try resolve(book, dir, cache: cache)
        #expect(fourth.pages[0].subject == subject)
        #expect(cache.read(id)?.thumbnail == kept.thumbnail)
        #expect(cache.readEstimated(id, character: nil)?.estimate == subject)
    }

    @Test func anEntryForOtherBytesIsNotTaken() throws {
        let dir = try temporaryDirectory("analysis-cache-other")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = PictureAnalysisCache(folder: dir.appendingPathComponent("cache"))
        let resolved = try resolve(try book(photo: false, in: dir), dir, cache: cache)
        let id = try #require(resolved.pages[0].image.asset?.id)
        // The entry of one picture copied to the name of another says whose it is.
        let other = String(repeating: "0", count: 32)
        try FileManager.default.copyItem(at: cache.entry(for: id), to: cache.entry(for: other))
        #expect(cache.read(other) == nil)
        #expect(cache.read(id) != nil)
    }

    @Test func aPhotoShownWholeIsNotAnalysedAndItsCheckIsKept() throws {
        let dir = try temporaryDirectory("analysis-cache-photo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = PictureAnalysisCache(folder: dir.appendingPathComponent("cache"))
        let book = try book(photo: true, in: dir)
        let first = try resolve(book, dir, cache: cache)
        let id = try #require(first.pages[0].image.asset?.id)
        #expect(first.pages[0].subject == nil, "shown whole with its caption beside it: nothing to choose")
        #expect(cache.read(id) == nil && first.decodedPictures.isEmpty)
        // What the picture check of an export keeps: the next run finds the picture decoded.
        cache.write(PictureAnalysis(decodes: true, thumbnail: nil), for: id)
        #expect(try resolve(book, dir, cache: cache).decodedPictures == [id])
        // A photo cropped to fill its area has a choice, and gets its subject (a thumbnail made,
        // though the entry had none).
        var cropped = book
        if case .photo(var photo) = cropped.pages[0].content {
            photo.fit = .cover
            cropped.pages[0] = Page(photo)
        }
        let third = try resolve(cropped, dir, cache: cache)
        #expect(third.pages[0].subject?.source == .estimated)
        #expect(cache.read(id)?.thumbnail != nil)
    }

    @Test func theEncodingReadsBackWhatWasWrittenAndRefusesWhatIsCut() throws {
        let data = try TestImages.convert(["-size", "90x60", "gradient:#102030-#F0E0D0"], output: "out.jpg")
        let asset = ImageAsset(data: data, info: try ImageProbe.probe(data), origin: "g.jpg")
        let thumbnail = try #require(Thumbnail.make(asset))
        var estimate = SubjectEstimator.estimate(thumbnail)
        for doubt: PictureSubject.Doubt? in [nil, .spread, .rival(x: 0.25, y: 0.5, otherX: 0.75, otherY: 0.125)] {
            estimate.doubt = doubt
            let analysis = PictureAnalysis(decodes: true, thumbnail: thumbnail, estimate: estimate)
            let bytes = analysis.encoded()
            #expect(PictureAnalysis(decoding: bytes) == analysis)
            #expect(PictureAnalysis(decoding: bytes.dropLast(3)) == nil)
            #expect(PictureAnalysis(decoding: bytes + Data([0])) == nil)
        }
        // The cells in CIELAB come back as the conversion makes them, and are what the thumbnail
        // read back gives: kept, not worked out again.
        let read = try #require(PictureAnalysis(decoding: PictureAnalysis(decodes: true, thumbnail: thumbnail).encoded())?.thumbnail)
        let fresh = Thumbnail(width: thumbnail.width, height: thumbnail.height, red: thumbnail.red, green: thumbnail.green, blue: thumbnail.blue)
        #expect(read.lab == fresh.lab)
        let marked = Thumbnail(width: thumbnail.width, height: thumbnail.height, red: thumbnail.red, green: thumbnail.green,
                               blue: thumbnail.blue, lab: fresh.lab.map { CIELab(l: $0.l, a: -$0.a, b: $0.b) })
        let readMarked = try #require(PictureAnalysis(decoding: PictureAnalysis(decodes: true, thumbnail: marked).encoded())?.thumbnail)
        #expect(readMarked.lab == marked.lab && readMarked.lab != fresh.lab)
        // An estimate with a thumbnail of its own keeps it.
        estimate.thumbnail = Thumbnail(width: 1, height: 1, red: [0.5], green: [0.25], blue: [0.125])
        let own = PictureAnalysis(decodes: true, thumbnail: thumbnail, estimate: estimate)
        #expect(PictureAnalysis(decoding: own.encoded()) == own)
    }
}
