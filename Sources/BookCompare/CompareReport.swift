import Foundation

/// The verdict on one page name.
public struct PageResult: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        case same
        case differs
        case missingExpected = "missing-expected"
        case missingActual = "missing-actual"
        case sizeMismatch = "size-mismatch"
        case unreadable

        /// Statuses that make the comparison an error (exit 2) rather than a difference.
        public var isError: Bool {
            switch self {
            case .same, .differs: false
            case .missingExpected, .missingActual, .sizeMismatch, .unreadable: true
            }
        }
    }

    public var name: String
    public var status: Status
    /// What went wrong, for every status but same and differs.
    public var message: String?
    /// Where each side's page came from (a file, or a PDF and page number); nil when missing.
    public var expected: String?
    public var actual: String?
    public var expectedSize: PixelSize?
    public var actualSize: PixelSize?
    /// The pixel buffers were equal byte for byte (the fast path).
    public var identical: Bool
    public var differingPixels: Int
    /// Differing pixels over pixels compared.
    public var ratio: Double
    public var antialiasedPixels: Int
    public var ignoredPixels: Int
    public var allowedDifferingPixels: Int
    public var maxChannelDelta: Int
    public var boundingBox: PixelRect?
    /// The expected | diff | actual image, relative to the report folder.
    public var diffImage: String?

    public init(name: String, status: Status, message: String? = nil, expected: String? = nil, actual: String? = nil,
                diff: PageDiff? = nil, diffImage: String? = nil) {
        self.name = name
        self.status = status
        self.message = message
        self.expected = expected
        self.actual = actual
        self.expectedSize = diff?.expectedSize
        self.actualSize = diff?.actualSize
        self.identical = diff?.identical ?? false
        self.differingPixels = diff?.differingPixels ?? 0
        self.ratio = diff?.ratio ?? 0
        self.antialiasedPixels = diff?.antialiasedPixels ?? 0
        self.ignoredPixels = diff?.ignoredPixels ?? 0
        self.allowedDifferingPixels = diff?.allowedDifferingPixels ?? 0
        self.maxChannelDelta = diff?.maxChannelDelta ?? 0
        self.boundingBox = diff?.boundingBox
        self.diffImage = diffImage
    }
}

/// One re-recorded page.
public struct UpdateAction: Sendable, Codable, Equatable {
    public enum Action: String, Sendable, Codable {
        /// The expected page was overwritten with the actual one.
        case replaced
        /// A page only the actual side had was copied in.
        case added
        /// A page the actual side no longer has was deleted.
        case removed
    }
    public var page: String
    public var action: Action
    public var path: String
}

/// Everything a comparison found; written as `report.json` and summarized in `index.html`.
public struct CompareReport: Sendable, Codable {
    public enum Status: String, Sendable, Codable {
        case same
        case differs
        case error
    }

    public struct Input: Sendable, Codable {
        public var path: String
        /// png, folder, pdf or memory; nil when the input could not be opened.
        public var kind: PageSource.Kind?
        /// Pages found; nil when the input could not be opened.
        public var pages: Int?
    }

    public struct Settings: Sendable, Codable {
        public var threshold: Double
        public var tolerance: Int
        public var maxDiffPixels: Int
        public var maxDiffRatio: Double?
        public var ignore: [String]
        public var includeAA: Bool
        public var dpi: Double?
        public var rasterizer: Rasterizer?
    }

    public struct Summary: Sendable, Codable {
        public var pages: Int
        public var same: Int
        public var differs: Int
        public var errors: Int
    }

    public var status: Status
    /// 0 same, 1 differs, 2 error.
    public var exitCode: Int32
    public var expected: Input
    public var actual: Input
    public var options: Settings
    public var summary: Summary
    /// Problems with the inputs as a whole: one that cannot be read, page counts that differ.
    public var findings: [String]
    public var pages: [PageResult]
    /// Pages re-recorded by `--update`.
    public var updated: [UpdateAction]

    init(expected: Input, actual: Input, options: Settings, findings: [String], pages: [PageResult]) {
        self.expected = expected
        self.actual = actual
        self.options = options
        self.findings = findings
        self.pages = pages
        self.updated = []
        let errors = pages.filter { $0.status.isError }.count
        let differs = pages.filter { $0.status == .differs }.count
        summary = Summary(pages: pages.count, same: pages.filter { $0.status == .same }.count, differs: differs, errors: errors)
        if errors > 0 || !findings.isEmpty {
            status = .error
            exitCode = 2
        } else if differs > 0 {
            status = .differs
            exitCode = 1
        } else {
            status = .same
            exitCode = 0
        }
    }

    /// The pages that are not the same, in page order.
    public var failures: [PageResult] { pages.filter { $0.status != .same } }

    public func jsonData() throws(CompareError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw CompareError(.writeFailed, "cannot encode the report: \(error)")
        }
    }

    /// What a person reads in a terminal: counts, each page that is not the same, where the report is.
    public func summaryText(reportDirectory: URL?) -> String {
        var lines: [String] = []
        lines.append("compared \(summary.pages) page\(summary.pages == 1 ? "" : "s"): \(summary.same) same, "
            + "\(summary.differs) differ\(summary.differs == 1 ? "s" : ""), \(summary.errors) error\(summary.errors == 1 ? "" : "s")")
        for finding in findings { lines.append("  error: \(finding)") }
        for page in failures {
            switch page.status {
            case .differs:
                var line = "  \(page.name): differs, \(page.differingPixels) pixels (\(Self.percent(page.ratio)))"
                if page.antialiasedPixels > 0 { line += ", \(page.antialiasedPixels) anti-aliased ignored" }
                line += ", max channel delta \(page.maxChannelDelta)"
                if let box = page.boundingBox { line += ", within x \(box.x) y \(box.y) \(box.width)×\(box.height)" }
                lines.append(line)
            default:
                lines.append("  \(page.name): \(page.status.rawValue)" + (page.message.map { ": \($0)" } ?? ""))
            }
        }
        for update in updated { lines.append("  updated \(update.page): \(update.action.rawValue) \(update.path)") }
        if let reportDirectory {
            lines.append("report: \(reportDirectory.appendingPathComponent("index.html").path) "
                + "(JSON: \(reportDirectory.appendingPathComponent("report.json").path))")
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ ratio: Double) -> String {
        String(format: ratio < 0.0001 && ratio > 0 ? "%.4f %%" : "%.2f %%", ratio * 100)
    }
}
