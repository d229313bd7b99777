import Foundation
import Testing
import BookLayout
import BookTestSupport
import BookRenderKit

/// An estimate that cannot choose between two subjects says so, on the page and for the picture,
/// with the `focus` that would settle it; a page that gives its focus hears nothing.
@Suite struct SubjectDoubtTests {
    static func book(focus: String?) throws -> URL {
        let folder = try temporaryDirectory("subject-doubt")
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let left = SceneFigure(x: 180, foot: 520, height: 90), right = SceneFigure(x: 720, foot: 520, height: 90)
        try NightScenes.night(width: 900, height: 600, figure: left, tree: -200, extra: right.mvg)
            .write(to: images.appendingPathComponent("twins.png"))
        let json = """
            {"schema": 1, "kind": "storybook", "language": "en", "title": "Two", "theme": "picture-book",
             "format": {"trim": {"width": "8.5in", "height": "8.5in"}},
             "pages": [
               {"type": "text", "text": "Once there were two."},
               {"type": "illustration", "image": "images/twins.png", \(focus.map { "\"focus\": \($0)," } ?? "") "text": "Which one is Mo?"}
             ]}
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("book.json"))
        return folder
    }

    @Test func twoLikeFiguresAskForAFocus() throws {
        let folder = try Self.book(focus: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let description = try TestBooks.open(folder.appendingPathComponent("book.json")).describe()
        let art = try #require(description.art.first { $0.image == "images/twins.png" })
        let unsure = description.findings.filter { $0.kind == "subjectUnsure" }
        #expect(unsure.count == 1, "\(description.findings.map(\.description))")
        let finding = try #require(unsure.first)
        #expect(finding.severity == .warning)
        #expect(finding.sourcePage == 1 && finding.pages == [art.page], "\(finding.description)")
        #expect(finding.message.contains("\"images/twins.png\"") && finding.message.contains("\"focus\""), "\(finding.message)")
        // The focus that keeps the estimate is the centre the crop used.
        let numbers = try #require(finding.message.firstMatch(of: #/\{"x": ([0-9.]+), "y": ([0-9.]+)\} to keep the estimate/#))
        let x = try #require(Double(numbers.1)), y = try #require(Double(numbers.2))
        #expect(abs(x - art.subject.midX) <= 0.006 && abs(y - art.subject.midY) <= 0.006, "\(finding.message); subject \(art.subject)")
    }

    @Test func aGivenFocusSettlesIt() throws {
        let folder = try Self.book(focus: #"{"x": 0.2, "y": 0.75}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let description = try TestBooks.open(folder.appendingPathComponent("book.json")).describe()
        #expect(!description.findings.contains { $0.kind == "subjectUnsure" }, "\(description.findings.map(\.description))")
    }
}
