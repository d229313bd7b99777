import Foundation

/// Compares two sides page by page, pairing pages by name, and writes the diff images and reports.
public enum Comparison {
    /// Opens EXPECTED and ACTUAL (each a PNG, a PDF or a folder of PNGs) and compares them.
    /// An input that cannot be opened is a finding in the report, not an error thrown; only a
    /// report or diff image that cannot be written throws. A PDF is rasterized at `dpi`, or when
    /// none is given at the resolution the other side's PNGs record (72 dpi when they record none).
    public static func run(expected: URL, actual: URL, options: CompareOptions = .init(), dpi: Double? = nil,
                           rasterizer: Rasterizer = .pdftoppm, reportDirectory: URL?) throws(CompareError) -> CompareReport {
        let urls = [("EXPECTED", expected), ("ACTUAL", actual)]
        var problems: [String?] = [nil, nil]
        var sides: [PageSource?] = [nil, nil]
        func open(_ i: Int, dpi: Double) {
            do {
                sides[i] = try PageSource.open(urls[i].1, dpi: dpi, rasterizer: rasterizer)
            } catch {
                problems[i] = "\(urls[i].0): \(error.message)"
            }
        }
        // The pages first: a PDF beside them is drawn at their resolution.
        let pdfs = urls.indices.filter { PageSource.isPDF(urls[$0].1) }
        for i in urls.indices where !pdfs.contains(i) { open(i, dpi: dpi ?? 72) }
        let dpi = dpi ?? sides.lazy.compactMap { $0?.recordedDPI }.first ?? 72
        for i in pdfs { open(i, dpi: dpi) }
        let findings = problems.compactMap { $0 }
        let usesPDF = sides.contains { $0?.kind == .pdf }
        let settings = settings(options, dpi: usesPDF ? dpi : nil, rasterizer: usesPDF ? rasterizer : nil)
        guard let expectedSource = sides[0], let actualSource = sides[1] else {
            let report = CompareReport(
                expected: .init(path: expected.path, kind: sides[0]?.kind, pages: sides[0]?.names.count),
                actual: .init(path: actual.path, kind: sides[1]?.kind, pages: sides[1]?.names.count),
                options: settings, findings: findings, pages: [])
            if let reportDirectory {
                try prepare(reportDirectory)
                try ReportWriter.write(report, to: reportDirectory)
            }
            return report
        }
        return try compare(expected: expectedSource, actual: actualSource, options: options, reportDirectory: reportDirectory,
                           settings: settings)
    }

    /// Compares two page sources. With a report directory, writes `diff/NAME` (expected | diff |
    /// actual) for every page that is not the same, then `report.json` and `index.html`; diff
    /// images left there by an earlier run are removed first.
    public static func compare(expected: PageSource, actual: PageSource, options: CompareOptions = .init(),
                               reportDirectory: URL?) throws(CompareError) -> CompareReport {
        try compare(expected: expected, actual: actual, options: options, reportDirectory: reportDirectory,
                    settings: settings(options, dpi: nil, rasterizer: nil))
    }

    static func compare(expected: PageSource, actual: PageSource, options: CompareOptions, reportDirectory: URL?,
                        settings: CompareReport.Settings) throws(CompareError) -> CompareReport {
        if let reportDirectory { try prepare(reportDirectory) }
        var findings: [String] = []
        let pairs: [(name: String, expected: String?, actual: String?)]
        if expected.kind == .png && actual.kind == .png {
            // Two files are compared whatever their names; the page takes the expected one's.
            pairs = [(expected.names[0], expected.names[0], actual.names[0])]
        } else {
            if expected.names.count != actual.names.count {
                findings.append("page count differs: EXPECTED has \(expected.names.count) page\(expected.names.count == 1 ? "" : "s"), "
                    + "ACTUAL has \(actual.names.count)")
            }
            let expectedNames = Set(expected.names), actualNames = Set(actual.names)
            pairs = PageSource.sortedNames(expectedNames.union(actualNames)).map {
                ($0, expectedNames.contains($0) ? $0 : nil, actualNames.contains($0) ? $0 : nil)
            }
        }
        var pages: [PageResult] = []
        for pair in pairs {
            pages.append(try comparePage(name: pair.name, expected: expected, expectedName: pair.expected,
                                         actual: actual, actualName: pair.actual, options: options,
                                         reportDirectory: reportDirectory))
        }
        let report = CompareReport(
            expected: .init(path: expected.path, kind: expected.kind, pages: expected.names.count),
            actual: .init(path: actual.path, kind: actual.kind, pages: actual.names.count),
            options: settings, findings: findings, pages: pages)
        if let reportDirectory { try ReportWriter.write(report, to: reportDirectory) }
        return report
    }

    private static func comparePage(name: String, expected: PageSource, expectedName: String?,
                                    actual: PageSource, actualName: String?, options: CompareOptions,
                                    reportDirectory: URL?) throws(CompareError) -> PageResult {
        let expectedLocation = expectedName.map { expected.location(of: $0) }
        let actualLocation = actualName.map { actual.location(of: $0) }
        var problems: [String] = []
        var expectedImage: RGBAImage? = nil, actualImage: RGBAImage? = nil
        if let expectedName {
            do { expectedImage = try expected.image(named: expectedName) } catch { problems.append("EXPECTED: \(error.message)") }
        }
        if let actualName {
            do { actualImage = try actual.image(named: actualName) } catch { problems.append("ACTUAL: \(error.message)") }
        }
        var result: PageResult
        if expectedName == nil {
            result = PageResult(name: name, status: .missingExpected, message: "only ACTUAL has this page",
                                expected: nil, actual: actualLocation)
        } else if actualName == nil {
            result = PageResult(name: name, status: .missingActual, message: "only EXPECTED has this page",
                                expected: expectedLocation, actual: nil)
        } else if !problems.isEmpty {
            result = PageResult(name: name, status: .unreadable, message: problems.joined(separator: "; "),
                                expected: expectedLocation, actual: actualLocation)
        } else {
            let diff = PageComparer.compare(expected: expectedImage!, actual: actualImage!, options: options, page: name)
            switch diff.status {
            case .same:
                return PageResult(name: name, status: .same, expected: expectedLocation, actual: actualLocation, diff: diff)
            case .differs:
                result = PageResult(name: name, status: .differs, expected: expectedLocation, actual: actualLocation, diff: diff)
            case .sizeMismatch:
                result = PageResult(name: name, status: .sizeMismatch,
                                    message: "EXPECTED is \(diff.expectedSize), ACTUAL is \(diff.actualSize)",
                                    expected: expectedLocation, actual: actualLocation, diff: diff)
            }
            if let reportDirectory {
                let strip = DiffImage.sideBySide(expected: expectedImage, actual: actualImage, diff: diff)
                result.diffImage = try writeStrip(strip, name: name, reportDirectory: reportDirectory)
            }
            return result
        }
        if let expectedImage { result.expectedSize = expectedImage.size }
        if let actualImage { result.actualSize = actualImage.size }
        if let reportDirectory, expectedImage != nil || actualImage != nil {
            let strip = DiffImage.sideBySide(expected: expectedImage, diff: nil, actual: actualImage)
            result.diffImage = try writeStrip(strip, name: name, reportDirectory: reportDirectory)
        }
        return result
    }

    /// The strip's path relative to the report folder.
    private static func writeStrip(_ strip: RGBAImage, name: String, reportDirectory: URL) throws(CompareError) -> String {
        let relative = "diff/" + diffFileName(name)
        try AtomicFile.write(strip, to: reportDirectory.appendingPathComponent(relative))
        return relative
    }

    static func diffFileName(_ page: String) -> String {
        let safe = page.replacingOccurrences(of: "/", with: "_")
        return safe.lowercased().hasSuffix(".png") ? safe : safe + ".png"
    }

    /// Creates the report folder and clears diff images an earlier run left, so the folder only
    /// ever shows this run's failures.
    static func prepare(_ directory: URL) throws(CompareError) {
        let diffFolder = directory.appendingPathComponent("diff")
        try AtomicFile.makeDirectory(diffFolder)
        let old = (try? FileManager.default.contentsOfDirectory(atPath: diffFolder.path)) ?? []
        for name in old where name.lowercased().hasSuffix(".png") {
            try? FileManager.default.removeItem(at: diffFolder.appendingPathComponent(name))
        }
    }

    static func settings(_ options: CompareOptions, dpi: Double?, rasterizer: Rasterizer?) -> CompareReport.Settings {
        CompareReport.Settings(threshold: options.threshold, tolerance: options.tolerance,
                               maxDiffPixels: options.maxDiffPixels, maxDiffRatio: options.maxDiffRatio,
                               ignore: options.ignore.map(\.description), includeAA: options.includeAA,
                               dpi: dpi, rasterizer: rasterizer)
    }
}
