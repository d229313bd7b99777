import Foundation
import BookCompare

public typealias CompareOptions = BookCompare.CompareOptions
public typealias CompareReport = BookCompare.CompareReport
public typealias IgnoreRegion = BookCompare.IgnoreRegion
public typealias Rasterizer = BookCompare.Rasterizer
public typealias PageSource = BookCompare.PageSource
public typealias RGBAImage = BookCompare.RGBAImage

/// Golden-image comparison: decoded pixels, never file bytes; exact match first, then a
/// per-channel tolerance, then pixelmatch's YIQ threshold with anti-aliasing detection.
public enum PageComparison {
    /// Compares EXPECTED with ACTUAL (each a PNG, a folder of PNGs or a PDF), pairing pages by
    /// file name. With `reportFolder`, writes `diff/NAME` (expected | diff | actual) for every page
    /// that is not the same, `report.json` and `index.html`. With `update`, ACTUAL's changed pages
    /// are copied over EXPECTED (PNG files and folders only) and listed in the report. A PDF is
    /// rasterized at `dpi`, or when none is given at the resolution the other side's PNGs record.
    public static func run(expected: URL, actual: URL, options: CompareOptions = CompareOptions(), dpi: Double? = nil,
                           rasterizer: Rasterizer = .pdftoppm, reportFolder: URL?, update: Bool = false) throws(BookRenderError) -> CompareReport {
        do {
            try options.validate()
            var report = try Comparison.run(expected: expected, actual: actual, options: options, dpi: dpi,
                                            rasterizer: rasterizer, reportDirectory: reportFolder)
            if update {
                report.updated = try Rerecord.update(expected: expected, actual: actual, report: report)
                if let reportFolder { try ReportWriter.write(report, to: reportFolder) }
            }
            return report
        } catch {
            throw BookRenderError(error)
        }
    }

    /// Compares two sets of pages already opened or in memory.
    public static func compare(expected: PageSource, actual: PageSource, options: CompareOptions = CompareOptions(),
                               reportFolder: URL? = nil) throws(BookRenderError) -> CompareReport {
        do {
            return try Comparison.compare(expected: expected, actual: actual, options: options, reportDirectory: reportFolder)
        } catch {
            throw BookRenderError(error)
        }
    }

    /// Copies ACTUAL's changed, new and removed pages over EXPECTED, as `report` found them.
    public static func rerecord(expected: URL, actual: URL, report: CompareReport) throws(BookRenderError) {
        do { _ = try Rerecord.update(expected: expected, actual: actual, report: report) } catch { throw BookRenderError(error) }
    }
}
