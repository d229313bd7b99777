import Foundation

/// The pixel size of each page of a PDF at a resolution, as bookrender's PNG writer sizes a page:
/// the page's box in points × dpi / 72, rounded to the nearest pixel. Pages of one size in a row
/// make one run, so a poppler program is started once per run rather than once per page.
enum PageSizes {
    struct Run: Equatable {
        var first: Int, last: Int
        var width: Int, height: Int
    }

    static func runs(of pdf: URL, dpi: Double, folder: URL) throws(CompareError) -> [Run] {
        guard let pdfinfo = PopplerProgram.findOnPath("pdfinfo") else {
            throw CompareError(.rasterizer, "pdfinfo is not installed; install Debian's poppler-utils")
        }
        let text = try PopplerProgram.run(pdfinfo, name: "pdfinfo", ["-box", "-f", "1", "-l", String(Int32.max), pdf.path],
                                          reading: pdf, in: folder)
        return runs(pdfinfo: text, dpi: dpi)
    }

    /// From `pdfinfo -box` output: each page's MediaBox (what both programs draw), turned by its
    /// rotation.
    static func runs(pdfinfo text: String, dpi: Double) -> [Run] {
        var boxes: [Int: (Double, Double)] = [:], rotations: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 4, words[0] == "Page", let page = Int(words[1]) else { continue }
            if words[2] == "MediaBox:", words.count >= 7,
               let x0 = Double(words[3]), let y0 = Double(words[4]), let x1 = Double(words[5]), let y1 = Double(words[6]) {
                boxes[page] = (abs(x1 - x0), abs(y1 - y0))
            } else if words[2] == "rot:", let r = Int(words[3]) {
                rotations[page] = r
            }
        }
        var runs: [Run] = []
        for page in boxes.keys.sorted() {
            var (w, h) = boxes[page]!
            if (rotations[page] ?? 0) % 180 != 0 { swap(&w, &h) }
            let width = max(1, Int((w * dpi / 72).rounded())), height = max(1, Int((h * dpi / 72).rounded()))
            if var last = runs.last, last.last == page - 1, last.width == width, last.height == height {
                last.last = page
                runs[runs.count - 1] = last
            } else {
                runs.append(Run(first: page, last: page, width: width, height: height))
            }
        }
        return runs
    }
}
