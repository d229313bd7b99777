import Foundation
import BookConfig

extension PDFPreflight {
    /// Every picture's resolution as `pdfimages -list` measures it on the page (its ppi columns),
    /// against the profile's thresholds, as the book preflight judges it.
    static func picturesBelowResolution(_ pdf: URL, profile: PrintProfile, name: String) throws -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        let images = try ReaderTool.run("pdfimages", ["-list", pdf.path]).split(separator: "\n").dropFirst(2)
        for line in images {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cols.count >= 14, cols[2] == "image", let page = Int(cols[0]),
                  let xppi = Double(cols[12]), let yppi = Double(cols[13]) else { continue }
            // Images under about 100 px are ornaments (emoji, marks), not pictures a printer judges.
            guard let w = Int(cols[3]), let h = Int(cols[4]), w * h > 10_000 else { continue }
            if let finding = PictureResolution.finding(dpi: min(xppi, yppi), profile: profile, page: page, file: name,
                                                       picture: "a \(w)×\(h) image") {
                out.append(finding)
            }
        }
        return out
    }
}
