import Testing
import Foundation
import BookRender
import BookTestSupport
import BookRenderKit

/// Black text and thin black rules print in black ink alone in CMYK output: set in DeviceGray
/// before the conversion (checked in the content qpdf reads back), K only after it (checked on
/// Ghostscript's CMYK rendering), while large dark areas keep their four-colour build.
@Suite struct BlackTextTests {
    /// A one-page PDF with `content` as its page's content stream and Helvetica as /F1.
    static func pdf(content: String, at url: URL) throws {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        var out = "%PDF-1.4\n", offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R /Info << /Title (t) >> >>\nstartxref\n\(xref)\n%%EOF\n"
        try Data(out.utf8).write(to: url)
    }

    /// The page's content as qpdf decodes it.
    static func content(_ pdf: URL) throws -> String {
        let out = try run("qpdf", ["--show-object=4", "--filtered-stream-data", pdf.path])
        guard out.status == 0 else { throw ToolError("qpdf failed: \(out.stderr)") }
        return out.stdout
    }

    @Test func blackTextAndThinBlackRulesAreSetInGrey() throws {
        let dir = try temporaryDirectory("black-text")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.pdf"), output = dir.appendingPathComponent("out.pdf")
        try Self.pdf(content: """
            0.184 0.165 0.145 rg
            BT /F1 20 Tf 10 150 Td (Warm black) Tj ET
            10 10 100 50 re f
            BT /F1 20 Tf 10 120 Td [(Again)-20(after)] TJ ET
            0.2 0.4 0.8 rg
            BT /F1 20 Tf 10 90 Td (Blue) Tj ET
            0.1 0.1 0.1 RG 0.5 w 150 10 m 290 10 l S
            8 w 150 40 m 290 40 l S
            q 0.5 w 0.1 0.1 0.1 RG 150 70 m 290 70 l S Q
            0.1 0.1 0.1 RG 150 100 m 290 100 l S

            """, at: input)
        try BlackText.setInGray(input, to: output)
        let text = try Self.content(output).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // Text in the near-black: grey; the area filled with it afterwards: its RGB again.
        #expect(text.contains("0 g (Warm black) Tj"), "\(text)")
        #expect(text.contains("ET 0.184 0.165 0.145 rg 10 10 100 50 re f"), "\(text)")
        #expect(text.components(separatedBy: " 0 g ").count - 1 == 2, "both black texts, not the blue one: \(text)")
        // The thin strokes in grey (one inside q…Q), the wide ones in their RGB.
        #expect(text.components(separatedBy: " 0 G ").count - 1 == 2, "\(text)")
        #expect(text.contains("0 G 150 10 m 290 10 l S"), "set before the path, not inside it: \(text)")
        #expect(text.contains("8 w 0.1 0.1 0.1 RG 150 40 m 290 40 l S"), "\(text)")
        #expect(text.hasSuffix("0.1 0.1 0.1 RG 150 100 m 290 100 l S"), "\(text)")
        // The file is valid and reads the same, bytes and all, when made again.
        #expect(try run("qpdf", ["--check", output.path]).status == 0)
        let again = dir.appendingPathComponent("again.pdf")
        try BlackText.setInGray(input, to: again)
        #expect(try Data(contentsOf: again) == Data(contentsOf: output))
    }

    @Test func aDamagedFileIsRefusedWithItsName() throws {
        let dir = try temporaryDirectory("black-text-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("bad.pdf")
        try Data("%PDF-1.4\nnot a pdf".utf8).write(to: input)
        #expect { try BlackText.setInGray(input, to: dir.appendingPathComponent("out.pdf")) } throws: { error in
            "\(error)".contains("bad.pdf")
        }
    }

    /// Ghostscript's CMYK rendering of `pages`: (C, M, Y, K) per pixel, 0…255.
    static func cmykPixels(_ pdf: URL, pages: ClosedRange<Int>, textOnly: Bool) throws -> [[UInt8]] {
        let dir = try temporaryDirectory("cmyk-pixels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.pam")
        var args = ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=pamcmyk32", "-r72",
                    "-dFirstPage=\(pages.lowerBound)", "-dLastPage=\(pages.upperBound)"]
        if textOnly { args += ["-dFILTERIMAGE", "-dFILTERVECTOR"] }
        let out = try run("gs", args + ["-o", file.path, pdf.path])
        guard out.status == 0 else { throw ToolError("gs failed: \(out.stdout)\(out.stderr)") }
        let data = [UInt8](try Data(contentsOf: file))
        var pixels: [[UInt8]] = [], i = 0
        let marker = Array("ENDHDR\n".utf8)
        while i < data.count {
            guard let end = (i..<(data.count - marker.count)).first(where: { Array(data[$0..<$0 + marker.count]) == marker }) else { break }
            let header = String(decoding: data[i..<end], as: UTF8.self)
            func field(_ name: String) -> Int {
                header.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
            }
            let start = end + marker.count, count = field("WIDTH") * field("HEIGHT") * 4
            for p in stride(from: start, to: start + count, by: 4) { pixels.append(Array(data[p..<p + 4])) }
            i = start + count
        }
        return pixels
    }

    @Test func ingramSparkTextIsBlackInkAloneAndPagesStayWithinTheInkLimit() throws {
        let dir = try temporaryDirectory("black-text-ingramspark")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("memoir.pdf")
        let book = Repository.samples.appendingPathComponent("memoir/book.json")
        _ = try BookDocument.open(book, settings: TestBooks.settings(profile: "ingramspark"))
            .export(ExportOptions(pdf: pdf, force: true))

        // Pages 2–6: the title, the contents and text pages in the theme's near-black ink.
        let text = try Self.cmykPixels(pdf, pages: 2...6, textOnly: true).filter { $0.contains { $0 > 0 } }
        let blackInkOnly = text.filter { $0[0] == 0 && $0[1] == 0 && $0[2] == 0 && $0[3] == 255 }
        #expect(blackInkOnly.count > 5000, "text in 100 % K")
        // The theme's muted grey may be built of four inks; no text is the four-colour black.
        let heavy = text.filter { $0.map(Int.init).reduce(0, +) > 200 * 255 / 100 }
        #expect(heavy.isEmpty, "four-colour text pixels: \(Set(heavy.prefix(5).map { "\($0)" }))")

        for (page, coverage) in try PDFReaders.inkCoverage(pdf, dpi: 30).enumerated() {
            #expect(coverage.maximum <= 240, "page \(page + 1): \(coverage.maximum) %")
        }
    }
}
