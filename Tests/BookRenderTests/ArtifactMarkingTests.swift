import Testing
import Foundation
import BookLayout
import BookTestSupport
import BookRenderKit

/// In a tagged PDF every painting operator is inside marked content, a structure element's or an
/// `/Artifact`'s (PDF/UA, ISO 14289-1, 7.1), read back from the written file with qpdf.
@Suite struct ArtifactMarkingTests {
    /// What one page's content stream paints, by the marked content it is inside.
    struct PageMarking {
        var unmarked: [String] = []
        var artifactText = 0
        var taggedText = 0
        /// BT/ET or a path object that a marked-content sequence straddles.
        var straddles: [String] = []
    }

    static func export(_ sample: String, tagged: Bool = true, to pdf: URL) throws {
        let document = try TestBooks.open(Repository.samples.appendingPathComponent(sample))
        var options = ExportOptions(pdf: pdf)
        options.tagged = tagged
        _ = try document.export(options)
    }

    /// Each page's content streams, uncompressed and in order, from qpdf's QDF form.
    static func pageContents(_ pdf: URL, work: URL) throws -> [[UInt8]] {
        let qdf = work.appendingPathComponent("qdf.pdf")
        _ = try run("qpdf", ["--qdf", "--object-streams=disable", pdf.path, qdf.path])
        let bytes = [UInt8](try Data(contentsOf: qdf))
        var pages: [Int: [UInt8]] = [:]
        let marker = Array("%% Contents for page ".utf8)
        var i = 0
        while let at = find(marker, in: bytes, from: i) {
            var j = at + marker.count
            var number = 0
            while j < bytes.count, bytes[j] >= 48, bytes[j] <= 57 { number = number * 10 + Int(bytes[j] - 48); j += 1 }
            guard let start = find(Array("stream\n".utf8), in: bytes, from: j),
                  let end = find(Array("endstream".utf8), in: bytes, from: start) else { break }
            pages[number, default: []] += bytes[(start + 7)..<end] + [10]
            i = end
        }
        return (1...max(1, pages.keys.max() ?? 0)).map { pages[$0] ?? [] }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], Array(haystack[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    static let painting: Set<String> = ["S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "Do", "sh", "EI", "Tj", "TJ", "'", "\""]
    static let showsText: Set<String> = ["Tj", "TJ", "'", "\""]
    static let buildsPath: Set<String> = ["m", "re"]

    /// Reads a content stream token by token: operands (strings, names, numbers, arrays,
    /// dictionaries) and operators, an inline image's data skipped.
    static func marking(_ s: [UInt8]) -> PageMarking {
        var result = PageMarking()
        // Each open marked-content sequence: its tag, and whether it has an MCID (a structure
        // element's content). A span without one (the ActualText that hides a placeholder's
        // caption from the text layer) is neither tagged nor an artifact.
        var stack: [(tag: String, mcid: Bool)] = []
        var firstName: String?
        var sawMCID = false
        var textDepth: Int?
        var pathDepth: Int?
        func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 || c == 12 || c == 0 }
        func isDelimiter(_ c: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(c) }
        var i = 0
        while i < s.count {
            let c = s[i]
            if isSpace(c) { i += 1; continue }
            if c == UInt8(ascii: "%") { while i < s.count, s[i] != 10, s[i] != 13 { i += 1 }; continue }
            if c == UInt8(ascii: "(") {
                var depth = 0
                while i < s.count {
                    if s[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if s[i] == UInt8(ascii: "(") { depth += 1 }
                    if s[i] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { i += 1; break } }
                    i += 1
                }
                continue
            }
            if c == UInt8(ascii: "<") {
                if i + 1 < s.count, s[i + 1] == UInt8(ascii: "<") { i += 2; continue }
                while i < s.count, s[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                continue
            }
            if c == UInt8(ascii: ">") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}") { i += 1; continue }
            var j = i + 1
            while j < s.count, !isSpace(s[j]), !isDelimiter(s[j]) { j += 1 }
            let word = String(decoding: s[i..<j], as: UTF8.self)
            i = j
            if c == UInt8(ascii: "/") {
                if firstName == nil { firstName = word }
                if word == "/MCID" { sawMCID = true }
                continue
            }
            if let first = word.first, first.isNumber || first == "-" || first == "+" || first == "." { continue }
            if word == "true" || word == "false" || word == "null" { continue }
            // An operator.
            var op = word
            if op == "ID" {
                // The image data runs to an EI between white space.
                i += 1
                while i + 2 < s.count, !(isSpace(s[i - 1]) && s[i] == UInt8(ascii: "E") && s[i + 1] == UInt8(ascii: "I") && isSpace(s[i + 2])) { i += 1 }
                i += 2
                op = "EI"
            }
            switch op {
            case "BMC", "BDC": stack.append((firstName ?? "?", sawMCID))
            case "EMC": _ = stack.popLast()
            case "BT": textDepth = stack.count
            case "ET":
                if textDepth != stack.count { result.straddles.append("BT…ET") }
                textDepth = nil
            default: break
            }
            if buildsPath.contains(op), pathDepth == nil { pathDepth = stack.count }
            if painting.contains(op) || op == "n" {
                if let depth = pathDepth, depth != stack.count, !["Do", "sh", "EI"].contains(op) { result.straddles.append("path ending in \(op)") }
                if ["S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"].contains(op) { pathDepth = nil }
            }
            if painting.contains(op) {
                let artifact = stack.contains { $0.tag == "/Artifact" }, tagged = stack.contains { $0.mcid }
                if !artifact, !tagged { result.unmarked.append(op) }
                if showsText.contains(op) {
                    if artifact { result.artifactText += 1 } else if tagged { result.taggedText += 1 }
                }
            }
            firstName = nil
            sawMCID = false
        }
        return result
    }

    static let books: [String] = TextLayerTests.books

    @Test(arguments: books)
    func everyPaintingIsTaggedOrAnArtifact(_ sample: String) throws {
        let work = try temporaryDirectory("artifacts")
        defer { try? FileManager.default.removeItem(at: work) }
        let pdf = work.appendingPathComponent("book.pdf")
        try Self.export(sample, to: pdf)
        _ = try run("qpdf", ["--check", pdf.path])
        #expect(try run("pdfinfo", [pdf.path]).stdout.contains(/Tagged:\s+yes/), "\(sample): not tagged")

        let tree = try TestBooks.open(Repository.samples.appendingPathComponent(sample)).layout()
        let pages = try Self.pageContents(pdf, work: work)
        #expect(pages.count == tree.pages.count, "\(sample): \(pages.count) content pages for \(tree.pages.count) pages")
        var taggedText = 0
        for (index, content) in pages.enumerated() {
            let marking = Self.marking(content)
            taggedText += marking.taggedText
            #expect(marking.unmarked.isEmpty, "\(sample) page \(index + 1) paints outside marked content: \(marking.unmarked.prefix(8))")
            #expect(marking.straddles.isEmpty, "\(sample) page \(index + 1): marked content straddles \(marking.straddles.prefix(4))")
            guard index < tree.pages.count else { continue }
            // A folio (or a printer's slug), and text that is not the book's (a placeholder's
            // caption, drawn in a span that hides it from the text layer): outside the structure.
            let folio = tree.pages[index].items.contains { item in
                if case .text(let box) = item { return !box.isBookText || box.structure == .artifact }
                return false
            }
            if folio {
                #expect(marking.artifactText > 0, "\(sample) page \(index + 1): its folio is not shown inside /Artifact")
            }
        }

        // The book's own text stays structure content, never an artifact.
        #expect(taggedText > 0, "\(sample): no text is shown as structure content")

        // The same book again gives the same bytes.
        let again = work.appendingPathComponent("again.pdf")
        try Self.export(sample, to: again)
        #expect(try Data(contentsOf: pdf) == Data(contentsOf: again), "\(sample): two exports differ")
    }

    /// A printer's profile (no transparency, the paper left unprinted, its own boxes; for
    /// IngramSpark a CMYK copy) finishes the file with more changes than a plain export; its pages
    /// are marked the same way.
    @Test(arguments: ["kdp", "ingramspark"])
    func aPrintersFileIsMarkedToo(_ printer: String) throws {
        let work = try temporaryDirectory("artifacts-rewritten")
        defer { try? FileManager.default.removeItem(at: work) }
        let pdf = work.appendingPathComponent("book.pdf")
        let document = try BookDocument.open(Repository.samples.appendingPathComponent("storybook/book.json"),
                                             settings: TestBooks.settings(profile: printer))
        var options = ExportOptions(pdf: pdf)
        // The sample is too short for KDP and has a placeholder: preflight's findings, not ours.
        options.force = true
        _ = try document.export(options)
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
        #expect(try run("pdfinfo", [pdf.path]).stdout.contains(/Tagged:\s+yes/))
        let pages = try Self.pageContents(pdf, work: work)
        #expect(!pages.isEmpty)
        var artifacts = 0
        for (index, content) in pages.enumerated() {
            let marking = Self.marking(content)
            #expect(marking.unmarked.isEmpty, "page \(index + 1) paints outside marked content: \(marking.unmarked.prefix(8))")
            #expect(marking.straddles.isEmpty, "page \(index + 1): marked content straddles \(marking.straddles.prefix(4))")
            artifacts += marking.artifactText
        }
        #expect(artifacts > 0)
    }

    @Test func untaggedOutputHasNoArtifacts() throws {
        let work = try temporaryDirectory("artifacts-untagged")
        defer { try? FileManager.default.removeItem(at: work) }
        let pdf = work.appendingPathComponent("book.pdf")
        try Self.export("memoir/book.json", tagged: false, to: pdf)
        let pages = try Self.pageContents(pdf, work: work)
        #expect(!pages.isEmpty)
        for content in pages {
            #expect(Self.find(Array("/Artifact".utf8), in: content, from: 0) == nil)
        }
    }
}
