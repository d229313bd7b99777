import Foundation
import BookConfig

extension PDFPreflight {
    /// The trim each page's TrimBox gives, against the printer's list (reported once, on the first
    /// page that has it), pages of another size than the first, and the page count against the
    /// multiple the printer binds that trim in.
    static func trimAndPageCount(boxes: [Int: PageBoxes], pages: Int, profile: PrintProfile, name: String) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        var reported: [PrintProfile.TrimName] = []
        var first: PrintProfile.TrimName?
        var unlike: [(page: Int, trim: PrintProfile.TrimName)] = []
        for page in boxes.keys.sorted() {
            guard let t = boxes[page]?.trim, t.count == 4 else { continue }
            let trim = PrintProfile.TrimName(width: t[2] - t[0], height: t[3] - t[1])
            if first == nil { first = trim }
            if let first, abs(first.width - trim.width) > 0.5 || abs(first.height - trim.height) > 0.5 { unlike.append((page, trim)) }
            guard !reported.contains(where: { abs($0.width - trim.width) < 0.5 && abs($0.height - trim.height) < 0.5 }),
                  let problem = profile.trimProblem(trim.width, trim.height, pdf: true) else { continue }
            reported.append(trim)
            out.append(PreflightFinding(.error, .trimSize, page: page, file: name, "TrimBox " + problem))
        }
        if let one = unlike.first, let first {
            let more = unlike.count > 1 ? " (\(unlike.count - 1) more page\(unlike.count == 2 ? "" : "s") of another size than page 1)" : ""
            out.append(PreflightFinding(.error, .mixedPageSizes, page: one.page, file: name,
                "TrimBox \(one.trim.spoken), but page 1's is \(first.spoken); \(profile.name) prints a book at one trim: make every page that size\(more)"))
        }
        let multiple = first.map { profile.pageMultiple(trim: $0.width, $0.height) } ?? profile.pages.multiple
        if multiple > 1, pages % multiple != 0 {
            let what = multiple == 2 ? "an even number of pages" : "a multiple of \(multiple) pages"
            out.append(PreflightFinding(.error, .pageCount, file: name, "\(pages) pages; \(profile.name) wants \(what)"))
        }
        return out
    }
}
