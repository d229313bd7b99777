import Foundation
import BookCompare

extension CompareReport {
    /// The inputs' problems and every page that is not the same, as findings: a difference a
    /// warning, a page that could not be compared (missing, another size, unreadable) an error.
    public var diagnostics: [Diagnostic] {
        findings.map { Diagnostic(.error, stage: .compare, kind: "input", message: $0) } + pages.filter { $0.status != .same }.map { page in
            Diagnostic(page.status.isError ? .error : .warning, stage: .compare, kind: page.status.rawValue,
                       message: "\(page.name): " + (page.message ?? "\(page.differingPixels) pixel(s) differ"),
                       file: page.actual ?? page.expected, pages: Self.number(page.name).map { [$0] } ?? [],
                       hint: page.diffImage.map { "see \($0)" })
        }
    }

    /// `page-007.png` → 7.
    private static func number(_ name: String) -> Int? {
        let digits = name.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }
        return Int(String(digits.reversed()))
    }
}

/// What `compare --json` prints: the report, with its findings as objects (report.json in the
/// report folder keeps them as text).
public struct CompareResult: Encodable {
    public var report: CompareReport
    public init(_ report: CompareReport) { self.report = report }

    private enum Keys: String, CodingKey { case findings }
    public func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(report.diagnostics, forKey: .findings)
    }
}
