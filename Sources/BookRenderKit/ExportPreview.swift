import Foundation
import BookBase
import BookResolve
import BookConfig
import BookLayout
import BookRender

extension BookDocument {
    /// The first `count` pages with the preview mark, for a screen: page PNGs at the resolution
    /// asked and a small PDF. The pages after them are never laid out, and the texts are set on
    /// this thread only (helpers would start on texts of pages a preview never shows).
    func exportPreview(_ count: Int, _ resolved: ResolvedBook, _ resources: ResourceLocator, _ options: ExportOptions,
                       settings: RenderSettings, paths: OutputPaths, timings: [ExportReport.StageTime]) throws(BookRenderError) -> ExportReport {
        var timings = timings
        var paths = paths
        if resolved.profile != nil {
            throw BookRenderError(.invalidOptions, "a preview is for a screen; leave out the printer's profile")
        }
        for asset in resolved.allAssets { if let url = asset.file { paths.input(url, as: asset.origin) } }
        try paths.verify(replacingReadOnly: options.force)
        return try BookRenderError.wrap {
            var clock = StageClock()
            let typesetter = try typesetter(resolved, resources)
            var tree = BookLayouter(typesetter: typesetter, textThreads: 1).layoutFirst(count, of: resolved)
            PreviewMark.mark(&tree, book: resolved, typesetter: typesetter)
            _ = tree.prepareGlyphRuns()
            try refuseUnderStrict(tree)
            timings.append(.init(stage: "layout", seconds: clock.elapsed))
            if let pdf = options.pdf {
                clock = StageClock()
                try AtomicOutput.makeFolder(pdf.deletingLastPathComponent())
                try PrintPDF.writeSmall(tree, to: pdf)
                timings.append(.init(stage: "pdf", seconds: clock.elapsed))
            }
            var pngFiles: [URL] = []
            if let png = options.png {
                clock = StageClock()
                pngFiles = try PageSetOutput.write(into: png.folder, pages: nil) { staging in
                    try PNGPageWriter(dpi: png.dpi, spreads: png.spreads).write(tree, to: staging)
                }
                timings.append(.init(stage: "png", seconds: clock.elapsed))
            }
            var fonts = Set<String>()
            for page in tree.pages { for box in page.textBoxes { fonts.formUnion(box.layout.fontFiles) } }
            var report = ExportReport(tree: tree, document: self, resolved: resolved, fonts: fonts)
            report.pdf = options.pdf?.path
            report.writtenPages = tree.pages.map(\.number)
            report.pngFiles = pngFiles.map(\.path)
            report.timings = timings
            if options.keepPageTree { report.pageTree = tree }
            if let url = options.report { try JSONOutput.write(CommandReport(command: "export", report), to: url) }
            return report
        }
    }
}
