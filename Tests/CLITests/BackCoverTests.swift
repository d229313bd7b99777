import Testing
import Foundation
import BookTestSupport

/// The back of a printed cover: a blurb (and about the author under it) instead of the title
/// repeated, clear of the barcode; a blurb too long for it refused by its field; the publisher on a
/// spine long enough; and no screen decoration beside the real spine.
@Suite struct BackCoverTests {
    static let blurb = "In 1951 a girl is born in the front bedroom of a house on Linden Street, because the snow is too deep to reach the hospital. Seventy years later she sits down at the kitchen table where she learned her letters and writes down all she remembers."
    static let bio = "Ada Whitlow taught school in Ohio for thirty-one years and lives on Linden Street."

    /// A 6 × 9 in memoir with `pages` text pages and the given cover and matter.
    func book(in dir: URL, pages: Int = 40, blurb: String?) throws -> URL {
        var json: [String: Any] = ["schema": 1, "kind": "memoir", "title": "Salt and Lanterns", "author": "Ada Whitlow",
                                   "theme": "memoir", "format": ["trim": "6x9"],
                                   "matter": ["aboutTheAuthor": Self.bio, "publisher": "Porter Street Press"],
                                   "pages": (1...pages).map { ["type": "text", "text": "Page \($0) of the harbour year. " + String(repeating: "The tide came in and went out again. ", count: 20)] }]
        if let blurb { json["cover"] = ["blurb": blurb] }
        let url = dir.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: url)
        return url
    }

    /// The sheet's words with where they are, from `pdftotext -bbox`: (word, xMin in points).
    func words(_ pdf: URL) throws -> [(word: String, x: Double, y: Double)] {
        let r = try run("pdftotext", ["-bbox", pdf.path, "-"])
        return r.stdout.matches(of: /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/).map {
            (String($0.3), Double($0.1)!, Double($0.2)!)
        }
    }

    @Test func theBackSetsTheBlurbAndTheAuthorUnderItAndTheSpineThePublisher() throws {
        let dir = try temporaryDirectory("back-cover")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("cover.pdf")
        let r = try run(try Repository.binary.path, ["cover", try book(in: dir, pages: 300, blurb: Self.blurb).path, "-o", pdf.path, "--profile", "kdp"])
        #expect(r.status == 0, "\(r.stderr)")
        let found = try words(pdf)
        let mediaLeft = 0.125 * 72 + 9  // the sheet's bleed and marks: the back's trim starts past them
        let backWidth = 6.0 * 72 + mediaLeft
        let back = found.filter { $0.x < backWidth - 20 }
        let backText = back.map(\.word).joined(separator: " ")
        #expect(backText.contains("Seventy years later she sits down"), "\(backText)")
        #expect(backText.contains("taught school in Ohio"), "\(backText)")
        #expect(!backText.contains("Salt and Lanterns"), "the back repeats the title: \(backText)")
        // About the author stands under the blurb.
        let blurbY = try #require(back.first { $0.word == "Seventy" }?.y), bioY = try #require(back.first { $0.word == "Ohio" }?.y)
        #expect(bioY > blurbY)
        // The spine (300 pages: wide enough) names the publisher too.
        let spine = found.filter { $0.x >= backWidth - 20 && $0.x < backWidth + 60 }.map(\.word).joined(separator: " ")
        #expect(spine.contains("Porter") && spine.contains("Lanterns"), "spine: \(spine)")
    }

    @Test func aBlurbTooLongForTheBackIsRefusedByItsField() throws {
        let dir = try temporaryDirectory("back-cover")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("cover.pdf")
        let long = String(repeating: Self.blurb + " ", count: 12)
        let r = try run(try Repository.binary.path, ["cover", try book(in: dir, blurb: long).path, "-o", pdf.path, "--profile", "kdp"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("$.cover.blurb") && r.stderr.contains("shorten it"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pdf.path))
    }
}
