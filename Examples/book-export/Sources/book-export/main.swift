// book-export BOOK OUT-FOLDER: validates a book, exports its PDF and 72-dpi page PNGs into
// OUT-FOLDER, and prints the report's summary as JSON on stdout.
import Foundation
import BookRenderKit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: book-export BOOK OUT-FOLDER\n".utf8))
    exit(64)
}
let book = URL(fileURLWithPath: arguments[1])
let out = URL(fileURLWithPath: arguments[2])

struct Summary: Encodable {
    var title: String
    var pages: Int
    var pdf: String?
    var pngFiles: Int
    var warnings: [String]
    var stages: [String: Double]
}

do throws(BookRenderError) {
    let document = try BookDocument.open(book, settings: RenderSettings(workers: 2))
    let validation = try document.validate()
    for finding in validation.diagnostics { FileHandle.standardError.write(Data("\(finding)\n".utf8)) }

    let report = try document.export(ExportOptions(
        pdf: out.appendingPathComponent("book.pdf"),
        png: .init(folder: out.appendingPathComponent("pages"), dpi: 72)))

    let summary = Summary(title: report.title, pages: report.pageCount, pdf: report.pdf, pngFiles: report.pngFiles.count,
                          warnings: report.findings.map(\.description),
                          stages: Dictionary(report.timings.map { ($0.stage, $0.seconds) }, uniquingKeysWith: +))
    print(String(decoding: try! JSONOutput.encode(summary), as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
    exit(error.exitCode)
}
