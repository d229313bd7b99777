import Foundation
import Testing
import BookRenderKit
import BookTestSupport

/// Over every sample and app book: no crop cuts off, and no text box covers, more than a tenth
/// of a picture's estimated subject. The figures are printed for each page.
@Suite struct SampleArtTests {
    static let samples = ["storybook/book.json", "memoir/book.json", "apps/memoirai/storybook.json",
                          "apps/roger/story.json", "apps/infinitestories/story.json"]
    static let allowed = 0.10

    @Test(arguments: samples) func cropsAndTextKeepTheSubject(_ file: String) throws {
        let description = try TestBooks.open(Repository.samples.appendingPathComponent(file)).describe()
        for art in description.art where art.subjectSource == "estimated" {
            let cut = 1 - art.subjectKept
            print(String(format: "%@ page %d (%@): subject %@, crop %@, cut %.1f %%, text %@ covering %.1f %%%@",
                         file, art.page, art.image, "\(art.subject)", "\(art.crop)", cut * 100, art.textPosition ?? "none",
                         art.subjectCovered * 100, art.textContrast.map { String(format: ", contrast %.2f:1", $0) } ?? ""))
            #expect(cut <= Self.allowed, "\(file) page \(art.page): the crop cuts \(cut) of the subject \(art.subject)")
            #expect(art.subjectCovered <= Self.allowed, "\(file) page \(art.page): the text covers \(art.subjectCovered) of the subject")
            if let contrast = art.textContrast {
                #expect(contrast >= 4.5, "\(file) page \(art.page): text over the picture at \(contrast):1")
            }
        }
    }

    /// A book whose pictures are all drawn shows where each went: the storybook's every
    /// illustration, spread page and its cover.
    @Test func everyPictureOfTheStorybookIsAccountedFor() throws {
        let description = try TestBooks.open(Repository.samples.appendingPathComponent("storybook/book.json")).describe()
        let pictured = Set(description.art.map(\.page))
        let drawn = Set(description.images.flatMap(\.pages))
        #expect(pictured == drawn)
    }
}
