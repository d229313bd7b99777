import ArgumentParser
import Foundation
import BookModel
import BookLayout
import BookRender

struct Cover: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Render the printed cover: back, spine and front on one sheet, spine width from the interior's page count.")

    @Argument(help: "The book.")
    var book: String

    @Option(name: .shortAndLong, help: "The cover PDF to write.")
    var output: String

    @Option(name: .long, help: "Print profile with a spine rule, such as kdp; one without says so.")
    var profile: String

    @Option(name: .long, help: "Paper: white, cream or color (sets the spine width per page).")
    var paper: String = "white"

    @Option(name: .long, help: "Also write the sheet as a PNG into this folder.")
    var png: String?

    @Option(name: .long, help: "PNG resolution in dots per inch.")
    var dpi: Double = 72

    @Option(name: .long, help: "Use this theme instead of the book's own.")
    var theme: String?

    func validate() throws {
        guard output.lowercased().hasSuffix(".pdf") else { throw ValidationError("--output must name a .pdf file") }
        guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
    }

    func run() throws {
        PDFFinisher.prepare()
        do {
            let pipeline = Pipeline(theme: theme, profile: profile)
            let loaded = try pipeline.load(book)
            let (resolved, resources) = try pipeline.resolve(loaded)
            // The spine depends on the interior as the printer will receive it, padding included.
            let interior = try pipeline.layout(resolved, resources: resources)
            let (tree, info) = try CoverSpread.layout(resolved, interiorPages: interior.pages.count, paper: paper,
                                                      typesetter: try pipeline.typesetter(resolved, resources: resources))
            let pdf = URL(fileURLWithPath: output)
            try PrintPDF.write(tree, to: pdf)
            if let png {
                try PNGPageWriter(dpi: dpi).write(tree, to: URL(fileURLWithPath: png))
            }
            Console.error(String(format: "wrote %@: %.3f × %.3f in sheet, spine %.4f in for %d interior pages on %@ paper%@",
                                 output, info.sheetInches.width, info.sheetInches.height, info.spineInches, info.interiorPages,
                                 paper, info.spineText ? ", with spine text" : ", too thin for spine text"))
        } catch let e as ValidationError {
            throw e
        } catch {
            throw Exit.fail(error)
        }
    }
}
