import Foundation

/// One thing a printer would reject (error) or question (warning), with where it is.
public struct PreflightFinding: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }
    public enum Check: String, Sendable, Codable {
        case lowResolution, outsideSafeArea, stopsAtTrim, placeholder, pageCount, fontNotEmbedded, fileSize, missingBoxes, missingGlyph
        case trimSize, mixedPageSizes, bleed, transparency, colourSpace, pdfx, totalInk, richBlackText
        case coverSize, barcodeArea, spineText, foldColour, damagedFile
    }
    public var severity: Severity
    public var check: Check
    /// Physical page number (1-based), when the finding is on a page.
    public var page: Int?
    /// The image file (or the PDF) concerned.
    public var file: String?
    public var message: String

    public init(_ severity: Severity, _ check: Check, page: Int? = nil, file: String? = nil, _ message: String) {
        self.severity = severity; self.check = check; self.page = page; self.file = file; self.message = message
    }

    public var description: String {
        ([severity.rawValue, check.rawValue] + (page.map { ["page \($0)"] } ?? []) + (file.map { [$0] } ?? []))
            .joined(separator: ": ") + ": " + message
    }
}

public extension Array where Element == PreflightFinding {
    var errors: [PreflightFinding] { filter { $0.severity == .error } }
}
