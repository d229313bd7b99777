import Foundation
import BookBase

/// Where one job keeps its book and what the export writes: `jobs/ID/input/…` and `jobs/ID/out/…`.
struct JobFolder: Sendable {
    var root: URL

    init(jobs: URL, id: String) { root = jobs.appendingPathComponent(id) }

    var input: URL { root.appendingPathComponent("input") }
    var output: URL { root.appendingPathComponent("out") }
    var pdf: URL { output.appendingPathComponent("book.pdf") }
    var pages: URL { output.appendingPathComponent("pages") }
    var report: URL { output.appendingPathComponent("report.json") }
    /// Page 1 alone, rendered before the rest so an app can show it early (`firstPage`).
    var preview: URL { root.appendingPathComponent("preview") }
    var previewPNG: URL { preview.appendingPathComponent(PageFileName.page(1)) }
    /// The export's `--events` lines of the current attempt.
    var events: URL { root.appendingPathComponent("events.jsonl") }
    /// The request body while it arrives, before it becomes the book in `input`.
    var upload: URL { root.appendingPathComponent("upload") }
    /// The export's temporary folder (its TMPDIR).
    var scratch: URL { root.appendingPathComponent("tmp") }
    var previewPDF: URL { preview.appendingPathComponent("page-1.pdf") }

    /// What the exports write: each may leave temporaries beside these when killed.
    var outputs: [URL] { [pdf, pages, report, previewPDF, preview, preview.appendingPathComponent("report.json")] }

    /// The page PNGs written so far, by page number (the export puts a whole set in place at once).
    func pagePNGs() -> [Int: URL] {
        let files = (try? FileManager.default.contentsOfDirectory(at: pages, includingPropertiesForKeys: nil)) ?? []
        var out: [Int: URL] = [:]
        for f in files {
            if let n = PageFileName.pageNumber(of: f.lastPathComponent) { out[n] = f }
        }
        return out
    }
}
