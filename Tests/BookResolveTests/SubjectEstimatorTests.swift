import Foundation
import Testing
@testable import BookResolve
import BookModel
import BookTestSupport

/// Pictures with a subject at a known place: a disc on a gradient sky, drawn by ImageMagick.
private func picture(discAt x: Int, _ y: Int, radius: Int = 36, width: Int = 300, height: Int = 400,
                     format: String = "png") throws -> ImageAsset {
    let data = try TestImages.convert(["-size", "\(width)x\(height)", "gradient:#BFE3F5-#F3E9D0",
                                       "-fill", "#D9622B", "-draw", "circle \(x),\(y) \(x + radius),\(y)",
                                       "-fill", "#3A2A20", "-draw", "circle \(x),\(y) \(x + radius / 4),\(y)"],
                                      output: "out.\(format)")
    return ImageAsset(data: data, info: try ImageProbe.probe(data), origin: "test.\(format)")
}

private func estimate(_ asset: ImageAsset) throws -> PictureSubject {
    SubjectEstimator.estimate(try #require(Thumbnail.make(asset)))
}

@Suite("Subject estimate")
struct SubjectEstimatorTests {
    @Test(arguments: [(60, 70), (240, 330), (150, 340), (250, 120)])
    func findsTheDisc(x: Int, y: Int) throws {
        let subject = try estimate(try picture(discAt: x, y))
        let cx = Double(x) / 300, cy = Double(y) / 400
        #expect(subject.source == .estimated)
        #expect(abs(subject.box.midX - cx) < 0.08, "box \(subject.box) for a disc at (\(cx), \(cy))")
        #expect(abs(subject.box.midY - cy) < 0.08, "box \(subject.box) for a disc at (\(cx), \(cy))")
        // The disc spans a quarter of the width; the box holds it and little else.
        #expect(subject.box.area < 0.12, "box \(subject.box)")
        #expect(subject.weight(in: subject.box) > 0.8)
    }

    @Test func aJPEGFindsTheSamePlace() throws {
        let png = try estimate(try picture(discAt: 230, 320))
        let jpeg = try estimate(try picture(discAt: 230, 320, format: "jpg"))
        #expect(abs(png.box.midX - jpeg.box.midX) < 0.05 && abs(png.box.midY - jpeg.box.midY) < 0.05,
                "png \(png.box), jpeg \(jpeg.box)")
    }

    @Test func aPlainPictureIsTakenWhole() throws {
        let data = try TestImages.convert(["-size", "120x160", "gradient:#BFE3F5-#F3E9D0"])
        let subject = try estimate(ImageAsset(data: data, info: try ImageProbe.probe(data), origin: "plain.png"))
        #expect(subject.box == .whole)
        #expect(subject.centre == (0.5, 0.5))
    }

    @Test func theSameBytesGiveTheSameEstimate() throws {
        let asset = try picture(discAt: 80, 300)
        #expect(try estimate(asset) == estimate(asset))
    }

    @Test func aGivenFocusIsKeptAsGiven() throws {
        let subject = Resolver.subject(of: try picture(discAt: 60, 70), focus: PictureFocus(x: 0.8, y: 0.9))
        #expect(subject.source == .given)
        #expect(subject.centre == (0.8, 0.9))
        #expect(subject.box.maxX <= 1 && subject.box.maxY <= 1)
        #expect(subject.box.area > 0)
    }

    @Test func theEstimateFollowsEXIFOrientation() throws {
        // Stored upright with the disc top left; orientation 6 shows it turned clockwise, so the
        // disc lands top right.
        let data = try TestImages.convert(["-size", "300x400", "gradient:#BFE3F5-#F3E9D0", "-fill", "#D9622B",
                                           "-draw", "circle 60,70 96,70"], output: "out.jpg")
        var info = try ImageProbe.probe(data)
        info.orientation = 6
        let subject = try estimate(ImageAsset(data: data, info: info, origin: "turned.jpg"))
        #expect(subject.box.midX > 0.7 && subject.box.midY < 0.35, "box \(subject.box)")
    }
}

@Suite("Focus in book.json")
struct FocusValidationTests {
    @Test func anOutOfRangeFocusNamesItsPath() {
        var page = IllustrationPage(image: .path("a.png"))
        page.focus = PictureFocus(x: 1.4, y: -0.1)
        let book = Book(kind: .storybook, title: "T", cover: Cover(focus: PictureFocus(x: 0.5, y: 2)), pages: [Page(page)])
        let errors = BookValidator.validate(book).errors.map(\.description)
        #expect(errors.contains { $0.contains("$.pages[0].focus.x") && $0.contains("1.4 is outside 0…1") }, "\(errors)")
        #expect(errors.contains { $0.contains("$.pages[0].focus.y") && $0.contains("-0.1 is outside 0…1") }, "\(errors)")
        #expect(errors.contains { $0.contains("$.cover.focus.y") }, "\(errors)")
        #expect(!errors.contains { $0.contains("$.cover.focus.x") }, "\(errors)")
    }
}
