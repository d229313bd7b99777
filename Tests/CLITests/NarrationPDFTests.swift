import Foundation
import Testing
import BookTestSupport

/// A narrated book's PDF (one without a print profile) carries its recordings as attachments, the
/// bytes as they were; a printer's PDF carries none; a recording that cannot be read stops the
/// export by name, as it does for the EPUB.
@Suite struct NarrationPDFTests {
    /// The EPUB tests' narrated book of three text pages.
    func book(in dir: URL, narration: String) throws -> URL {
        try NarrationEPUBTests().book(in: dir, narration: narration)
    }

    /// The attachments `pdfdetach` finds, by name, with their bytes.
    func attachments(_ pdf: URL, in dir: URL) throws -> [String: Data] {
        let list = try run("pdfdetach", ["-list", pdf.path])
        #expect(list.status == 0, "\(list.stderr)")
        var found: [String: Data] = [:]
        for line in list.stdout.split(separator: "\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let n = Int(line[..<colon]) else { continue }
            let name = String(line[line.index(colon, offsetBy: 2)...])
            let out = dir.appendingPathComponent("detached-\(n)")
            let saved = try run("pdfdetach", ["-save", String(n), "-o", out.path, pdf.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            found[name] = try Data(contentsOf: out)
        }
        return found
    }

    @Test func theBooksRecordingGoesIntoItsPDFAndNotIntoAPrintersPDF() throws {
        let dir = try temporaryDirectory("narrated-pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mp3 = dir.appendingPathComponent("story.mp3")
        let spoken = try SpokenAudio.record(NarrationEPUBTests.texts.joined(separator: " "), to: mp3)
        let entries = (0..<3).map { "{\"page\": \($0 + 1), \"start\": \(String(format: "%.3f", spoken * Double($0) / 3))}" }
        let book = try book(in: dir, narration: "{\"audio\": \"story.mp3\", \"pages\": [\(entries.joined(separator: ", "))]}")
        let pdf = dir.appendingPathComponent("book.pdf")
        let r = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try attachments(pdf, in: dir) == ["story.mp3": try Data(contentsOf: mp3)])
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)

        let printed = dir.appendingPathComponent("print.pdf")
        let p = try run(try Repository.binary.path, ["export", book.path, "-o", printed.path, "--profile", "lulu", "--force"])
        #expect(FileManager.default.fileExists(atPath: printed.path), "\(p.stderr)")
        #expect(try attachments(printed, in: dir).isEmpty, "a printer's PDF carries no attachment")
    }

    @Test func aRecordingPerPageIsEachAttachedOnceAndAMissingOneIsNamed() throws {
        let dir = try temporaryDirectory("narrated-pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String: Data] = [:]
        for (i, text) in NarrationEPUBTests.texts.prefix(2).enumerated() {
            let name = i == 0 ? "one.mp3" : "two.m4a"
            _ = try SpokenAudio.record(text, to: dir.appendingPathComponent(name))
            files[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        let pdf = dir.appendingPathComponent("book.pdf")
        let book = try book(in: dir, narration: #"{"pages": [{"page": 1, "audio": "one.mp3"}, {"page": 2, "audio": "two.m4a"}, {"page": 3, "audio": "one.mp3"}]}"#)
        let r = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try attachments(pdf, in: dir) == files)

        let missing = try self.book(in: dir, narration: #"{"pages": [{"page": 1, "audio": "gone.mp3"}]}"#)
        let before = try Data(contentsOf: pdf)
        let refused = try run(try Repository.binary.path, ["export", missing.path, "-o", pdf.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("narration.pages[0].audio") && refused.stderr.contains("gone.mp3"), "\(refused.stderr)")
        #expect(try Data(contentsOf: pdf) == before, "the previous PDF stays")
    }
}
