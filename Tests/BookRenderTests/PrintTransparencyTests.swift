import Testing
import Foundation
import BookRender
import BookTestSupport
import BookRenderKit

/// Print files for printers that take no transparency (KDP, Lulu, IngramSpark): no `/Group` and
/// no `/SMask` anywhere in qpdf's JSON, pictures passed through untouched (their JPEG bytes are
/// the picture files'), colour emoji drawn as small opaque patches with their page's text still
/// text, the same bytes run to run.
@Suite struct PrintTransparencyTests {
    static func export(_ sample: String, profile: String, to pdf: URL) throws {
        let book = Repository.samples.appendingPathComponent("\(sample)/book.json")
        let document = try BookDocument.open(book, settings: TestBooks.settings(profile: profile))
        // The samples are shorter than the printers' minimum page count.
        _ = try document.export(ExportOptions(pdf: pdf, force: true))
    }

    /// Keys named `/Group` or `/SMask` in any object of the file, with the object they are in.
    static func transparencyKeys(_ pdf: URL) throws -> [String] {
        let json = try PDFReaders.QPDFJSON(pdf)
        var found: [String] = []
        func walk(_ value: Any, in object: String) {
            if let d = value as? [String: Any] {
                for (key, v) in d {
                    if key == "/Group" || key == "/SMask" { found.append("\(key) in \(object)") }
                    walk(v, in: object)
                }
            } else if let a = value as? [Any] {
                a.forEach { walk($0, in: object) }
            }
        }
        for (name, value) in json.objects { walk(value, in: name) }
        return found.sorted()
    }

    @Test(arguments: [("storybook", "kdp"), ("memoir", "kdp"), ("storybook", "lulu"), ("memoir", "lulu"),
                      ("storybook", "ingramspark"), ("memoir", "ingramspark")])
    func printFilesHaveNoTransparency(sample: String, profile: String) throws {
        let dir = try temporaryDirectory("transparency-\(sample)-\(profile)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        try Self.export(sample, profile: profile, to: pdf)
        #expect(try Self.transparencyKeys(pdf) == [])
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
        #expect(try PDFReaders.ghostscriptMessages(pdf) == "")
    }

    @Test func theScreenProofKeepsItsTransparency() throws {
        // Only print profiles that refuse it lose it: a proof is drawn as the PNGs are.
        let dir = try temporaryDirectory("transparency-proof")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        try Self.export("storybook", profile: "proof", to: pdf)
        #expect(try Self.transparencyKeys(pdf).contains { $0.hasPrefix("/SMask") })
    }

    @Test func colourEmojiArePatchesAndTheirPageStaysTextWithItsPicture() throws {
        let dir = try temporaryDirectory("transparency-patches")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        try Self.export("storybook", profile: "kdp", to: pdf)
        let list = try run("pdfimages", ["-list", pdf.path]).stdout.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        // page num type width height color comp bpc enc interp object id x-ppi y-ppi size ratio
        let jpegPages = Set(list.filter { $0[8] == "jpeg" }.map { Int($0[0])! })
        let patches = list.filter { $0[8] != "jpeg" && $0[12] == "600" }
        // Page 12 has two colour emoji: each a patch of about its size, at 600 ppi, nothing larger.
        #expect(patches.map { Int($0[0])! } == [12, 12], "\(list)")
        for patch in patches { #expect(Int(patch[3])! < 400 && Int(patch[4])! < 400, "\(patch)") }
        // The page keeps its picture, and its text (the emoji's own included) reads as text.
        #expect(jpegPages.isSuperset(of: [6, 7, 12]), "\(list)")
        #expect(jpegPages.count >= 6)
        let text = try run("pdftotext", ["-f", "12", "-l", "12", pdf.path, "-"]).stdout
        #expect(text.contains("brighter than the moon 🌙") && text.contains("he decided 🦊"), "\(text)")

        let extracted = dir.appendingPathComponent("img")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("pdfimages", ["-j", pdf.path, extracted.appendingPathComponent("i").path]).status == 0)
        let pictures = Repository.samples.appendingPathComponent("storybook/images")
        let originals = Set(try FileManager.default.contentsOfDirectory(atPath: pictures.path).filter { $0.hasSuffix(".jpg") }
            .map { try Data(contentsOf: pictures.appendingPathComponent($0)) })
        let jpegs = try FileManager.default.contentsOfDirectory(atPath: extracted.path).filter { $0.hasSuffix(".jpg") }
        #expect(jpegs.count == jpegPages.count)
        for name in jpegs {
            #expect(originals.contains(try Data(contentsOf: extracted.appendingPathComponent(name))), "\(name) is a picture file's bytes")
        }
    }

    @Test func filesWithoutTransparencyAreTheSameBytesRunToRun() throws {
        let dir = try temporaryDirectory("transparency-determinism")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.pdf"), b = dir.appendingPathComponent("b.pdf")
        try Self.export("storybook", profile: "lulu", to: a)
        try Self.export("storybook", profile: "lulu", to: b)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test func aTranslucentCardOverThePaperIsMixedWithItNotFlattened() throws {
        // The memoir's cards, shadows and scrims lie on flat paper: drawn opaque, nothing flattened.
        let dir = try temporaryDirectory("transparency-memoir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        try Self.export("memoir", profile: "kdp", to: pdf)
        let list = try run("pdfimages", ["-list", pdf.path]).stdout
        #expect(!list.contains(" 600   600 "), "no page rendered into a picture:\n\(list)")
        let proof = dir.appendingPathComponent("proof.pdf")
        try Self.export("memoir", profile: "proof", to: proof)
        #expect(try Self.transparencyKeys(proof).contains { $0.hasPrefix("/Group") }, "the proof draws with transparency")
    }
}
