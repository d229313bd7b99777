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
                                   findings: PageTreePreflight.check(tree, profile: printProfile).map(Diagnostic.init))
        }
    }
}

public enum PDFCheck {
    /// Checks a finished PDF against `profile` with poppler's tools and Ghostscript: page count,
    /// boxes, text ink within the safety distance, fonts embedded, picture resolution, file size.
    /// A `coverSheet` is one page as wide as back, spine and front, so the interior's page-count
    /// and trim rules are left out.
    public static func preflight(_ pdf: URL, profile: String, coverSheet: Bool = false,
                                 settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> PreflightReport {
        try RenderSettings.checkProfileName(profile, in: try? settings.resources())
        return try BookRenderError.wrap {
            let printProfile = try PrintProfile.load(named: profile, from: try settings.resources().profiles)
            let findings = try PDFPreflight.check(pdf, profile: printProfile).filter { !coverSheet || ($0.check != .pageCount && $0.check != .trimSize) }
            return PreflightReport(profile: profile, input: pdf.path, findings: findings.map(Diagnostic.init))
        }
    }
}
