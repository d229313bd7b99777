import Foundation
import Testing
import BookTestSupport

/// A narrated book's EPUB: media overlays the checker accepts, whose clips read every line of each
/// page in order, end to end; and the recordings that cannot be read, refused by name.
@Suite struct NarrationEPUBTests {
    static let texts = [
        "Pip the little fox lived in a den at the bottom of Clover Hill.",
        "Every evening, far across the bay, a light blinked on and off.",
        "One night Pip packed a bag and set off to find out why.",
    ]

    /// A book of three text pages in `dir` with the narration `narration` (JSON).
    func book(in dir: URL, narration: String) throws -> URL {
        let pages = Self.texts.map { "{\"type\": \"text\", \"text\": \"\($0)\"}" }.joined(separator: ", ")
        let url = dir.appendingPathComponent("book.json")
        try Data("""
        {"schema": 1, "kind": "storybook", "title": "Read to Me", "language": "en", "created": "2024-05-01",
         "pages": [\(pages)], "narration": \(narration)}
        """.utf8).write(to: url)
        return url
    }

    func export(_ book: URL, to epub: URL) throws -> ToolResult {
        try run(try Repository.binary.path, ["export", book.path, "--epub", epub.path])
    }

    struct Clip: Equatable { var line: String; var audio: String; var begin: Double; var end: Double }

    static func seconds(_ clock: Substring) -> Double {
        let parts = clock.split(separator: ":").map { Double($0)! }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    /// Each narrated page's clips, by page file, and the ids of the lines its document holds.
    func overlays(_ unpacked: URL) throws -> [(page: String, lines: [String], clips: [Clip])] {
        let oebps = unpacked.appendingPathComponent("OEBPS")
        let opf = try String(contentsOf: oebps.appendingPathComponent("package.opf"), encoding: .utf8)
        var out: [(String, [String], [Clip])] = []
        for match in opf.matches(of: /href="(page-\d+\.xhtml)" media-type="application\/xhtml\+xml" media-overlay="(mo-\d+)"/) {
            let page = String(match.1)
            let smilHref = try #require(opf.firstMatch(of: try Regex("id=\"\(match.2)\" href=\"([^\"]+)\""))?.output[1].substring)
            let smil = try String(contentsOf: oebps.appendingPathComponent(String(smilHref)), encoding: .utf8)
            let clips = smil.matches(of: /<text src="..\/(page-\d+\.xhtml)#(l\d+)"\/><audio src="..\/([^"]+)" clipBegin="([\d:.]+)" clipEnd="([\d:.]+)"\/>/).map { m in
                #expect(String(m.1) == page)
                return Clip(line: String(m.2), audio: String(m.3), begin: Self.seconds(m.4), end: Self.seconds(m.5))
            }
            let xhtml = try String(contentsOf: oebps.appendingPathComponent(page), encoding: .utf8)
            let lines = xhtml.matches(of: /<span class="ln" id="(l\d+)">/).map { String($0.1) }
            out.append((page, lines, clips))
        }
        return out
    }

    @Test func oneRecordingForTheBookReadsEachPageFromItsStart() throws {
        let dir = try temporaryDirectory("narration")
        defer { try? FileManager.default.removeItem(at: dir) }
        let spoken = try SpokenAudio.record(Self.texts.joined(separator: " "), to: dir.appendingPathComponent("story.mp3"))
        let starts = [0, spoken / 3, spoken * 2 / 3]
        let entries = starts.enumerated().map { "{\"page\": \($0.offset + 1), \"start\": \(String(format: "%.3f", $0.element))}" }
        let epub = dir.appendingPathComponent("read.epub")
        let r = try export(try book(in: dir, narration: "{\"audio\": \"story.mp3\", \"pages\": [\(entries.joined(separator: ", "))]}"), to: epub)
        #expect(r.status == 0, "\(r.stderr)")
        let check = try EPUBReaders.epubcheck(epub)
        #expect(check.passed, "\(check.messages.joined(separator: "\n"))")

        let unpacked = try EPUBReaders.unpack(epub)
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let pages = try overlays(unpacked)
        // The cover is not read; each text page is.
        #expect(pages.map(\.page) == ["page-002.xhtml", "page-003.xhtml", "page-004.xhtml"])
        var previousEnd = 0.0
        for (i, page) in pages.enumerated() {
            #expect(!page.clips.isEmpty)
            // Every line of the page, in the order the page shows them, one clip each.
            #expect(page.clips.map(\.line) == page.lines)
            #expect(abs(page.clips[0].begin - String(format: "%.3f", starts[i]).asDouble) < 0.002, "page \(i + 1) starts at its start")
            for clip in page.clips {
                #expect(clip.audio == "audio/narration-1.mp3")
                #expect(clip.end > clip.begin)
                #expect(abs(clip.begin - previousEnd) < 0.002, "clips follow each other: \(page.clips)")
                previousEnd = clip.end
            }
        }
        // The last page is read to the end of the recording.
        #expect(previousEnd > spoken - 0.01 && previousEnd < spoken + 0.2, "\(previousEnd) s, spoken \(spoken) s")
    }

    @Test func aRecordingPerPageIsEachReadWhole() throws {
        let dir = try temporaryDirectory("narration")
        defer { try? FileManager.default.removeItem(at: dir) }
        var lengths: [Double] = []
        for (i, text) in Self.texts.enumerated() {
            lengths.append(try SpokenAudio.record(text, to: dir.appendingPathComponent("page-\(i + 1).m4a")))
        }
        let entries = (1...3).map { "{\"page\": \($0), \"audio\": \"page-\($0).m4a\"}" }
        let epub = dir.appendingPathComponent("read.epub")
        let r = try export(try book(in: dir, narration: "{\"pages\": [\(entries.joined(separator: ", "))]}"), to: epub)
        #expect(r.status == 0, "\(r.stderr)")
        let check = try EPUBReaders.epubcheck(epub)
        #expect(check.passed, "\(check.messages.joined(separator: "\n"))")
        let unpacked = try EPUBReaders.unpack(epub)
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let pages = try overlays(unpacked)
        #expect(pages.count == 3)
        for (i, page) in pages.enumerated() {
            #expect(page.clips.map(\.line) == page.lines)
            #expect(Set(page.clips.map(\.audio)) == ["audio/narration-\(i + 1).m4a"])
            #expect(page.clips.first?.begin == 0)
            #expect(abs((page.clips.last?.end ?? 0) - lengths[i]) < 0.2, "\(page.clips) against \(lengths[i]) s")
        }
    }

    @Test func aRecordingThatIsMissingUnreadableOrTooShortIsNamed() throws {
        let dir = try temporaryDirectory("narration")
        defer { try? FileManager.default.removeItem(at: dir) }
        try SpokenAudio.record("Short.", to: dir.appendingPathComponent("short.mp3"))
        try Data("not a recording at all".utf8).write(to: dir.appendingPathComponent("text.mp3"))
        let cases = [
            ("{\"audio\": \"gone.mp3\", \"pages\": [{\"page\": 1, \"start\": 0}]}", "gone.mp3 does not exist"),
            ("{\"audio\": \"text.mp3\", \"pages\": [{\"page\": 1, \"start\": 0}]}", "text.mp3 is not an MP3 file"),
            ("{\"audio\": \"short.mp3\", \"pages\": [{\"page\": 1, \"start\": 0}, {\"page\": 2, \"start\": 30}]}", "short.mp3 plays"),
            ("{\"pages\": [{\"page\": 1, \"audio\": \"short.mp3\"}, {\"page\": 2, \"audio\": \"gone.m4a\"}]}", "narration.pages[1].audio: the narration"),
        ]
        for (narration, expected) in cases {
            let epub = dir.appendingPathComponent("read.epub")
            let r = try export(try book(in: dir, narration: narration), to: epub)
            #expect(r.status != 0, "\(narration)")
            #expect(r.stderr.contains(expected), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: epub.path), "nothing is written")
        }
        let short = try export(try book(in: dir, narration: "{\"audio\": \"short.mp3\", \"pages\": [{\"page\": 1, \"start\": 0}, {\"page\": 2, \"start\": 30}]}"),
                               to: dir.appendingPathComponent("read.epub"))
        #expect(short.stderr.contains("shorter than its timings (page 2 starts at 30 s)"), "\(short.stderr)")
    }
}

private extension String {
    var asDouble: Double { Double(self)! }
}
