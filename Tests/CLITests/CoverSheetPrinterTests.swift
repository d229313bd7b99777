import Testing
import Foundation
import BookConfig
import BookTestSupport

/// `bookrender cover --profile` for every theme and every printer, as a print shop receives it: the
/// sheet is written without a preflight error, and the written PDF, checked as a cover against the
/// interior's page count and trim, passes the printer's checks.
@Suite struct CoverSheetPrinterTests {
    static let themes = Theme.available(in: Repository.resources.templates)

    @Test(arguments: themes)
    func everyThemesSheetPassesEveryPrintersChecks(_ theme: String) throws {
        let dir = try temporaryDirectory("sheet-printers-\(theme)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kind = try Theme.load(named: theme, from: Repository.resources.templates).kind ?? .storybook
        // A picture with 300 ppi over the front and its bleed at 6 x 9 in.
        try TestImages.gradientJPEG(width: 1900, height: 2800).write(to: dir.appendingPathComponent("front.jpg"))
        let json: [String: Any] = [
            "schema": 1, "kind": kind.rawValue, "title": "Salt and Lanterns", "subtitle": "A harbour year", "author": "Ada Whitlow",
            "theme": theme, "format": ["trim": "6x9"],
            "cover": ["photo": "front.jpg", "blurb": "A year of tides, told by the girl who kept the lamp."],
            "pages": (1...40).map { ["type": "text", "text": "Page \($0) of the harbour year, when the boats came in late."] },
        ]
        let book = dir.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: book)
        for printer in ["kdp", "lulu", "ingramspark"] {
            let sheet = dir.appendingPathComponent("cover-\(printer).pdf")
            let made = try run(try Repository.binary.path, ["cover", book.path, "-o", sheet.path, "--profile", printer])
            #expect(made.status == 0 && !made.stderr.contains("error"), "\(theme) for \(printer): \(made.stderr)")
            let pages = try #require(CoverSheetTests.interiorPages(made.stderr), "\(theme) for \(printer): \(made.stderr)")
            let checked = try run(try Repository.binary.path, ["preflight", sheet.path, "--profile", printer, "--cover",
                                                               "--pages", "\(pages)", "--trim", "6x9"])
            #expect(checked.status == 0 && checked.stdout.contains(" 0 error(s)"), "\(theme) for \(printer): \(checked.stdout) \(checked.stderr)")
        }
    }
}
