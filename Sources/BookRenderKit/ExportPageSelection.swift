import Foundation
import BookConfig

extension BookDocument {
    /// Some pages of a book, finished for a printer, would pass for the whole book at the
    /// printer (with its own page count, spine and gutter), so a print interior is written whole.
    func refusePartialPrintFile(_ profile: PrintProfile?, _ options: ExportOptions) throws(BookRenderError) {
        guard let profile, profile.interior, options.pdf != nil, let pages = options.pages else { return }
        let asked = pages.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
        throw BookRenderError(.invalidOptions,
            "--pages \(asked) with the \(profile.name) profile would make a print file of only some pages, which \(profile.name) would take for the whole book; "
            + "export the whole book for \(profile.name), or look at those pages with --profile proof (or no profile)")
    }
}
