import Foundation
import BookBase
import BookConfig
import BookLayout
import BookRender
import BookResolve

public struct CoverOptions: Sendable {
    public var pdf: URL
    /// A print profile with a spine rule (`kdp`, `lulu`, `ingramspark`); the document's own profile when nil.
    public var profile: String?
    /// white, cream or color: the paper sets the spine width per page.
    public var paper: String
    /// paperback, or hardcover: a case-bound cover with its wrap and the printer's hardcover spine.
    public var binding: CoverBinding
    /// Also the sheet as a PNG in this folder, at `dpi`.
    public var png: URL?
    public var dpi: Double
    /// Replace outputs that are read-only files, and write the cover even when preflight finds
    /// errors in it (as `ExportOptions.force`).
    public var force: Bool
    /// Where the caller will write the result: checked with the outputs, so it is never the book,
    /// one of its pictures or the cover itself. The library does not write it.
    public var report: URL?

    public init(pdf: URL, profile: String? = nil, paper: String = "white", binding: CoverBinding = .paperback, png: URL? = nil,
                dpi: Double = 72, force: Bool = false, report: URL? = nil) {
        self.pdf = pdf; self.profile = profile; self.paper = paper; self.binding = binding; self.png = png; self.dpi = dpi; self.force = force
        self.report = report
    }
}

/// The printed cover sheet as written.
public struct CoverReport: Sendable, Codable {
    public var pdf: String
    public var pngFiles: [String]
    public var sheetWidthInches: Double
    public var sheetHeightInches: Double
    public var spineInches: Double
    /// The interior's page count the spine was measured for, padding included.
    public var interiorPages: Int
    public var paper: String
    public var binding: CoverBinding
    /// The PDF's page, bleed (a hardcover's wrap) included: the size a printer's cover calculator gives.
    public var mediaWidthInches: Double
    public var mediaHeightInches: Double
    /// False when the spine is too thin for its title.
    public var spineText: Bool
    /// What preflight found on the sheet (pictures below the printer's resolution, text outside
    /// the safe area …); with errors the cover is written only under `force`.
    public var findings: [Diagnostic] = []
}

extension BookDocument {
    /// Lays out back, spine and front on one sheet, the spine as wide as the interior (laid out for
    /// the same profile) is thick on `paper`, and writes it.
    public func cover(_ options: CoverOptions) throws(BookRenderError) -> CoverReport {
        guard options.pdf.pathExtension.lowercased() == "pdf" else {
            throw BookRenderError(.invalidOptions, "the cover must be a .pdf file, not \(options.pdf.path)")
        }
        guard options.dpi.isFinite, options.dpi >= 10, options.dpi <= 1200 else {
            throw BookRenderError(.invalidOptions, "the PNG resolution must be between 10 and 1200 dpi, not \(options.dpi)")
        }
        let document = options.profile.map { name in with { $0.profile = name } } ?? self
        guard document.settings.profile != nil else {
            throw BookRenderError(.invalidOptions, "a cover needs a print profile with a spine rule (kdp, lulu or ingramspark)")
        }
        var paths = OutputPaths()
        if let file { paths.input(URL(fileURLWithPath: file), as: "the book") }
        paths.output(options.pdf, as: "the cover PDF", kind: .pdf)
        if let report = options.report { paths.output(report, as: "the report", kind: .json) }
        if let png = options.png { paths.pageSet(in: png, showing: { $0 == 1 }) }
        try paths.verify(replacingReadOnly: options.force)
        let (resolved, resources) = try document.resolveWithResources()
        for asset in resolved.allAssets { if let url = asset.file { paths.input(url, as: asset.origin) } }
        try paths.verify(replacingReadOnly: options.force)
        try document.checkPictureData(resolved, threads: settings.workers, only: \.passesThroughToPDF)
        return try BookRenderError.wrap {
            let (tree, info, findings) = try document.coverSheet(resolved, resources, paper: options.paper, binding: options.binding)
            let errors = findings.errors
            if let profile = resolved.profile, !errors.isEmpty, !options.force {
                throw BookRenderError(.preflightFailed,
                    "preflight found \(errors.count) error(s) in the cover for \(profile.name); fix them, or pass --force to write the cover anyway",
                    diagnostics: errors.map(Diagnostic.init))
            }
            try AtomicOutput.makeFolder(options.pdf.deletingLastPathComponent())
            try PrintPDF.write(tree, to: options.pdf, profile: resolved.profile, threads: settings.workers)
            var pngFiles: [URL] = []
            if let png = options.png {
                pngFiles = try PageSetOutput.write(into: png, pages: [1]) { staging in try PNGPageWriter(dpi: options.dpi).write(tree, to: staging) }
            }
            return CoverReport(pdf: options.pdf.path, pngFiles: pngFiles.map(\.path), sheetWidthInches: info.sheetInches.width,
                               sheetHeightInches: info.sheetInches.height, spineInches: info.spineInches,
                               interiorPages: info.interiorPages, paper: options.paper, binding: info.binding,
                               mediaWidthInches: info.mediaInches.width, mediaHeightInches: info.mediaInches.height,
                               spineText: info.spineText, findings: findings.map(Diagnostic.init))
        }
    }

    /// Checks the printed cover sheet for `profile` as `cover` lays it out, without writing it:
    /// picture resolution, text outside the safe area, pictures that stop at the trim,
    /// placeholders. Page 1 is the sheet.
    public func preflightCover(profile: String, paper: String = "white", binding: CoverBinding = .paperback) throws(BookRenderError) -> PreflightReport {
        let document = with { $0.profile = profile }
        let (resolved, resources) = try document.resolveWithResources()
        return try BookRenderError.wrap {
            let findings = try document.coverSheet(resolved, resources, paper: paper, binding: binding).findings
            return PreflightReport(profile: profile, input: file ?? resolved.book.title, findings: findings.map(Diagnostic.init))
        }
    }

    /// The sheet laid out for the resolved profile, and what preflight finds on it.
    /// `interiorPages` when the interior was laid out already.
    func coverSheet(_ resolved: ResolvedBook, _ resources: ResourceLocator, paper: String, binding: CoverBinding = .paperback,
                    interiorPages: Int? = nil) throws -> (tree: PageTree, info: CoverSpread.Info, findings: [PreflightFinding]) {
        let typesetter = try typesetter(resolved, resources)
        // The spine depends on the interior as the printer will receive it, padding included.
        let pages = interiorPages ?? BookLayouter(typesetter: typesetter, textThreads: settings.workers).layout(resolved).pages.count
        let (tree, info) = try CoverSpread.layout(resolved, interiorPages: pages, paper: paper, binding: binding,
                                                  typesetter: typesetter)
        // The page count and the trim are the interior's errors, not the sheet's: here they are
        // warnings, so a cover made early says what the printer will want of the book.
        let findings = resolved.profile.map { profile in
            PageTreePreflight.pages(tree, profile: profile)
                + PDFPreflight.wrappedInterior(CoverSheet(interiorPages: pages, paper: paper,
                                                          interiorTrim: PrintProfile.TrimName(width: resolved.trim.width, height: resolved.trim.height),
                                                          binding: binding),
                                               profile: profile, name: nil)
        } ?? []
        return (tree, info, findings)
    }
}
