import Foundation

/// Writes `report.json` and `index.html` into a report folder.
public enum ReportWriter {
    public static func write(_ report: CompareReport, to directory: URL) throws(CompareError) {
        try AtomicFile.makeDirectory(directory)
        try AtomicFile.write(try report.jsonData(), to: directory.appendingPathComponent("report.json"))
        try AtomicFile.write(Data(HTMLReport.render(report).utf8), to: directory.appendingPathComponent("index.html"))
    }
}

/// A static page with no external assets: a summary, a table of every page, and for each page
/// that is not the same its expected, diff and actual thumbnails (cut from the one strip image
/// with CSS, so the folder holds a single image per page) with the differences boxed.
enum HTMLReport {
    static func render(_ report: CompareReport) -> String {
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>bookrender compare: \(report.status.rawValue)</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #222; background: #fafafa; }
        h1 { font-size: 20px; margin: 0 0 8px; }
        h2 { font-size: 16px; margin: 28px 0 8px; }
        .status { display: inline-block; padding: 2px 10px; border-radius: 10px; color: #fff; font-weight: 600; }
        .same { background: #2e7d32; } .differs { background: #c62828; } .error { background: #6a1b9a; }
        table { border-collapse: collapse; background: #fff; }
        th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        code { font-size: 13px; }
        .page { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 12px; margin: 16px 0; }
        .strip { display: flex; gap: 12px; max-width: 1400px; }
        .panel { flex: 1 1 0; min-width: 0; margin: 0; }
        .panel figcaption { font-weight: 600; margin-bottom: 4px; }
        .thumb { display: block; position: relative; overflow: hidden; height: 0; background: #d0d0d0; border: 1px solid #bbb; }
        .thumb img { position: absolute; top: 0; height: 100%; width: 300%; max-width: none; }
        .thumb .box { position: absolute; border: 2px solid #e91e63; box-sizing: border-box; min-width: 4px; min-height: 4px; }
        .findings li { color: #6a1b9a; }
        </style>
        </head>
        <body>
        <h1>bookrender compare <span class="status \(report.status.rawValue)">\(report.status.rawValue)</span></h1>
        <p>\(report.summary.pages) page\(report.summary.pages == 1 ? "" : "s") compared: \(report.summary.same) same,
        \(report.summary.differs) differ\(report.summary.differs == 1 ? "s" : ""), \(report.summary.errors) error\(report.summary.errors == 1 ? "" : "s").
        Exit code \(report.exitCode).</p>
        <table>
        <tr><th>EXPECTED</th><td><code>\(escape(report.expected.path))</code>\(describe(report.expected))</td></tr>
        <tr><th>ACTUAL</th><td><code>\(escape(report.actual.path))</code>\(describe(report.actual))</td></tr>
        <tr><th>options</th><td>\(escape(describe(report.options)))</td></tr>
        </table>

        """
        if !report.findings.isEmpty {
            html += "<h2>Findings</h2>\n<ul class=\"findings\">\n"
            for finding in report.findings { html += "<li>\(escape(finding))</li>\n" }
            html += "</ul>\n"
        }
        if !report.updated.isEmpty {
            html += "<h2>Re-recorded</h2>\n<ul>\n"
            for update in report.updated {
                html += "<li>\(escape(update.page)): \(update.action.rawValue) <code>\(escape(update.path))</code></li>\n"
            }
            html += "</ul>\n"
        }
        let failures = report.failures
        if !failures.isEmpty {
            html += "<h2>Pages that are not the same</h2>\n"
            for page in failures { html += section(page) }
        }
        if !report.pages.isEmpty {
            html += """
            <h2>All pages</h2>
            <table>
            <tr><th>page</th><th>status</th><th>differing pixels</th><th>ratio</th><th>anti-aliased</th><th>max channel delta</th><th>bounding box</th></tr>

            """
            for page in report.pages {
                let box = page.boundingBox.map { "\($0.x),\($0.y) \($0.width)×\($0.height)" } ?? ""
                let name = page.diffImage.map { "<a href=\"\(url($0))\">\(escape(page.name))</a>" } ?? escape(page.name)
                html += "<tr><td>\(name)</td><td>\(page.status.rawValue)\(page.identical ? " (identical)" : "")</td>"
                    + "<td class=\"n\">\(page.differingPixels)</td><td class=\"n\">\(CompareReport.percent(page.ratio))</td>"
                    + "<td class=\"n\">\(page.antialiasedPixels)</td><td class=\"n\">\(page.maxChannelDelta)</td><td>\(box)</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "</body>\n</html>\n"
        return html
    }

    private static func section(_ page: PageResult) -> String {
        var html = "<div class=\"page\" id=\"\(escape(page.name))\">\n<h3>\(escape(page.name)) "
            + "<span class=\"status \(page.status == .differs ? "differs" : "error")\">\(page.status.rawValue)</span></h3>\n"
        if page.status == .differs {
            html += "<p>\(page.differingPixels) differing pixels (\(CompareReport.percent(page.ratio)); "
                + "\(page.allowedDifferingPixels) allowed), \(page.antialiasedPixels) anti-aliased pixels ignored, "
                + "largest channel difference \(page.maxChannelDelta)"
            if let box = page.boundingBox { html += ", differences within x \(box.x), y \(box.y), \(box.width)×\(box.height) px" }
            html += ".</p>\n"
        } else if let message = page.message {
            html += "<p>\(escape(message))</p>\n"
        }
        html += "<p>EXPECTED <code>\(escape(page.expected ?? "none"))</code>\(page.expectedSize.map { " \($0)" } ?? "")<br>"
            + "ACTUAL <code>\(escape(page.actual ?? "none"))</code>\(page.actualSize.map { " \($0)" } ?? "")</p>\n"
        if let image = page.diffImage {
            let width = max(page.expectedSize?.width ?? 0, page.actualSize?.width ?? 0, 1)
            let height = max(page.expectedSize?.height ?? 0, page.actualSize?.height ?? 0, 1)
            // Each thumbnail is sized by a top padding in percent of its width, which keeps the
            // page's proportions in every browser, old ones without `aspect-ratio` included.
            html += "<div class=\"strip\">\n"
            for (index, label) in ["expected", "diff", "actual"].enumerated() {
                html += "<figure class=\"panel\"><figcaption>\(label)</figcaption>"
                    + "<a class=\"thumb\" href=\"\(url(image))\" style=\"padding-top: \(pct(height, width))\">"
                    + "<img src=\"\(url(image))\" alt=\"\(label) of \(escape(page.name))\" style=\"left: -\(index * 100)%\">"
                if let box = page.boundingBox {
                    html += "<span class=\"box\" style=\"left: \(pct(box.x, width)); top: \(pct(box.y, height)); "
                        + "width: \(pct(box.width, width)); height: \(pct(box.height, height))\"></span>"
                }
                html += "</a></figure>\n"
            }
            html += "</div>\n<p><a href=\"\(url(image))\">\(escape(image))</a> (expected | diff | actual at full size)</p>\n"
        }
        return html + "</div>\n"
    }

    private static func describe(_ input: CompareReport.Input) -> String {
        guard let kind = input.kind else { return " (could not be opened)" }
        return " (\(kind.rawValue), \(input.pages ?? 0) page\(input.pages == 1 ? "" : "s"))"
    }

    private static func describe(_ s: CompareReport.Settings) -> String {
        var parts = ["threshold \(s.threshold)", "tolerance \(s.tolerance)", "max diff pixels \(s.maxDiffPixels)"]
        if let ratio = s.maxDiffRatio { parts.append("max diff ratio \(ratio)") }
        if !s.ignore.isEmpty { parts.append("ignore \(s.ignore.joined(separator: " "))") }
        if s.includeAA { parts.append("anti-aliased pixels counted") }
        if let dpi = s.dpi { parts.append("PDF pages at \(dpi) dpi") }
        if let r = s.rasterizer { parts.append("rasterized by \(r.rawValue)") }
        return parts.joined(separator: ", ")
    }

    private static func pct(_ value: Int, _ total: Int) -> String {
        String(format: "%.3f%%", Double(value) * 100 / Double(total))
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A relative path as a URL path: spaces, `#` and `?` in page names must not end the path.
    static func url(_ relative: String) -> String {
        escape(relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative)
    }
}
