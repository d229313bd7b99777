import Foundation
import BookConfig
import BookRender
import BookLayout

/// What a printer would reject or question, for one profile.
public struct PreflightReport: Sendable, Codable {
    public var profile: String
    public var input: String
    public var findings: [Diagnostic]
    public var errors: Int { findings.errors.count }
    public var passed: Bool { errors == 0 }

    private enum CodingKeys: String, CodingKey { case profile, input, findings, errors }

    public init(profile: String, input: String, findings: [Diagnostic]) {
        self.profile = profile; self.input = input; self.findings = findings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(profile: try c.decode(String.self, forKey: .profile), input: try c.decode(String.self, forKey: .input),
                  findings: try c.decode([Diagnostic].self, forKey: .findings))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(profile, forKey: .profile)
        try c.encode(input, forKey: .input)
        try c.encode(findings, forKey: .findings)
        try c.encode(errors, forKey: .errors)
    }
}

extension BookDocument {
    /// Lays the book out for `profile` and checks it: picture resolution, text ink outside the safe
    /// area, pictures that stop at a trim edge with bleed, placeholders, characters that cannot
    /// print, page count.
    public func preflight(profile: String) throws(BookRenderError) -> PreflightReport {
        let document = with { $0.profile = profile }
        let (resolved, resources) = try document.resolveWithResources()
        return try BookRenderError.wrap {
            let tree = BookLayouter(typesetter: try document.typesetter(resolved, resources), textThreads: settings.workers)
                .layout(resolved)
            let printProfile = try resolved.profile ?? PrintProfile.load(named: profile, from: resources.profiles)
            return PreflightReport(profile: profile, input: file ?? resolved.book.title,
                                   findings: PageTreePreflight.check(tree, profile: printProfile, binding: settings.binding).map(Diagnostic.init))
        }
    }
}

/// What a cover PDF is checked against: the interior's page count (`pages`, or the `interior`
/// PDF's), the paper, and the interior's trim (the `interior` PDF's first TrimBox, or `trim` such
/// as "6x9"; with neither, the sheet's panels must be a trim the printer lists).
public struct CoverCheck: Sendable, Equatable {
    public var pages: Int?
    public var interior: URL?
    public var trim: String?
    public var paper: String

    public init(pages: Int? = nil, interior: URL? = nil, trim: String? = nil, paper: String = "white") {
        self.pages = pages; self.interior = interior; self.trim = trim; self.paper = paper
    }

    func sheet() throws(BookRenderError) -> CoverSheet {
        if let interior {
            guard FileManager.default.fileExists(atPath: interior.path) else {
                throw BookRenderError(.unreadableInput, "--interior \(interior.path): no such file")
            }
            let size = try BookRenderError.wrap { try PDFPreflight.interiorSize(interior) }
            return CoverSheet(interiorPages: size.pages, paper: paper, interiorTrim: size.trim)
        }
        guard let pages, pages > 0 else {
            throw BookRenderError(.invalidOptions, "a cover PDF is checked against its interior: give --pages N (the interior's page count) or --interior INTERIOR.pdf")
        }
        var trimName: PrintProfile.TrimName?
        if let trim {
            guard let parsed = PrintProfile.TrimName(inches: trim) else {
                throw BookRenderError(.invalidOptions, "--trim \"\(trim)\" is not a trim: write width x height in inches, such as 6x9")
            }
            trimName = parsed
        }
        return CoverSheet(interiorPages: pages, paper: paper, interiorTrim: trimName)
    }
}

public enum PDFCheck {
    /// Checks a finished PDF against `profile` with poppler's tools, qpdf and Ghostscript: page
    /// count, trim, boxes and bleed, transparency, colour spaces and PDF/X keys, text ink within
    /// the safety distance, black text in black ink, total ink, fonts embedded, picture
    /// resolution, file size. With `cover`, the file is a cover sheet: one page whose size the
    /// spine formula gives, with its barcode area, spine text and folds checked instead of the
    /// interior's page-count and trim rules.
    public static func preflight(_ pdf: URL, profile: String, cover: CoverCheck? = nil,
                                 settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> PreflightReport {
        try RenderSettings.checkProfileName(profile, in: try? settings.resources())
        let sheet = try cover?.sheet()
        return try BookRenderError.wrap {
            let printProfile = try PrintProfile.load(named: profile, from: try settings.resources().profiles)
            let findings = try PDFPreflight.check(pdf, profile: printProfile, cover: sheet, binding: settings.binding)
            return PreflightReport(profile: profile, input: pdf.path, findings: findings.map(Diagnostic.init))
        }
    }
}
