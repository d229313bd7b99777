import Foundation
import BookConfig

extension PDFPreflight {
    /// The trim each page's TrimBox gives, against the printer's list (reported once, on the first
    /// page that has it), and the page count against the multiple the printer binds that trim in.
    static func trimAndPageCount(boxes: [Int: PageBoxes], pages: Int, profile: PrintProfile, name: String) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        var reported: [PrintProfile.TrimName] = []
        var first: PrintProfile.TrimName?
        for page in boxes.keys.sorted() {
            guard let t = boxes[page]?.trim, t.count == 4 else { continue }
            let trim = PrintProfile.TrimName(width: t[2] - t[0], height: t[3] - t[1])
            if first == nil { first = trim }
            guard !reported.contains(where: { abs($0.width - trim.width) < 0.5 && abs($0.height - trim.height) < 0.5 }),
                  let problem = profile.trimProblem(trim.width, trim.height) else { continue }
            reported.append(trim)
            out.append(PreflightFinding(.error, .trimSize, page: page, file: name, "TrimBox " + problem))
        }
        let multiple = first.map { profile.pageMultiple(trim: $0.width, $0.height) } ?? profile.pages.multiple
        if multiple > 1, pages % multiple != 0 {
            let what = multiple == 2 ? "an even number of pages" : "a multiple of \(multiple) pages"
            out.append(PreflightFinding(.error, .pageCount, file: name, "\(pages) pages; \(profile.name) wants \(what)"))
        }
        return out
    }
}
