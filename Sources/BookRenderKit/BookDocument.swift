import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout

/// A book opened for rendering: the book (read from any supported format, or built in memory),
/// where its images are, and the settings every operation on it uses.
///
/// ```swift
/// let document = try BookDocument.open(URL(fileURLWithPath: "book.json"))
/// let report = try document.export(ExportOptions(pdf: URL(fileURLWithPath: "book.pdf")))
/// ```
public struct BookDocument: Sendable {
    public var book: Book
    /// The folder image paths resolve against; they may not leave it.
    public var folder: URL
    /// The format the book was read from (`book.json`, or one of the apps' files).
    public var source: SourceFormat
    /// The file it was read from, as the user named it; nil for a book built in memory.
    public var file: String?
    /// What loading noticed without failing: unknown fields, skipped app items, fields a page type
    /// ignores.
    public var loadWarnings: [Diagnostic]
    public var settings: RenderSettings
    /// Seconds spent reading and checking the file.
    public var loadSeconds: Double

    /// Reads `url` (a book.json, a folder holding one, or an app's saved file; the format is
    /// detected) and checks it. Every problem of an invalid file is in the error's diagnostics.
    public static func open(_ url: URL, settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> BookDocument {
        let settings = try settings.checked()
        let clock = StageClock()
        // The font set loads on a thread of its own while the book is read and resolved.
        if settings.workers > 1, let resources = try? settings.resources() {
            FontLibrary.preload(manifest: resources.fontManifest)
        }
        let loaded = try BookRenderError.wrap { try BookLoader.load(contentsOf: url) }
        // The file read, as the user named it: a folder's book is its book.json.
        var isFolder: ObjCBool = false
        let read = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
            ? url.appendingPathComponent("book.json") : url
        let name = read.relativePath
        return BookDocument(book: loaded.book, folder: loaded.folder, source: loaded.source, file: name,
                            loadWarnings: loaded.warnings.map { Diagnostic(loadWarning: $0, file: name) },
                            settings: settings, loadSeconds: clock.elapsed)
    }

    /// A book built in memory whose image paths are relative to `folder`.
    public init(book: Book, folder: URL, settings: RenderSettings = RenderSettings()) {
        self.init(book: book, folder: folder, source: .bookJSON, file: nil, loadWarnings: [], settings: settings, loadSeconds: 0)
    }

    init(book: Book, folder: URL, source: SourceFormat, file: String?, loadWarnings: [Diagnostic],
         settings: RenderSettings, loadSeconds: Double) {
        self.book = book; self.folder = folder; self.source = source; self.file = file
        self.loadWarnings = loadWarnings; self.settings = settings; self.loadSeconds = loadSeconds
    }

    /// The same book with other settings.
    public func with(_ change: (inout RenderSettings) -> Void) -> BookDocument {
        var copy = self
        change(&copy.settings)
        return copy
    }

    /// The resolve stage: theme and token overrides applied, images located and probed,
    /// placeholders chosen. For programs that drive the later stages themselves.
    public func resolve() throws(BookRenderError) -> ResolvedBook {
        try resolveWithResources().0
    }

    /// The layout stage's page tree: every physical page as positioned boxes.
    public func layout() throws(BookRenderError) -> PageTree {
        let (resolved, resources) = try resolveWithResources()
        return try BookRenderError.wrap {
            BookLayouter(typesetter: try typesetter(resolved, resources), textThreads: settings.workers).layout(resolved)
        }
    }

    func resolveWithResources() throws(BookRenderError) -> (ResolvedBook, ResourceLocator) {
        let settings = try settings.checked()
        // The texts are checked beside the resolving, which reads the same book and never fails on
        // what the check refuses; the check's findings come first either way.
        let book = self.book, limits = settings.limits
        nonisolated(unsafe) var textIssues: [BookIssue] = []
        let checked = DispatchGroup()
        if settings.workers > 1 {
            DispatchQueue.global().async(group: checked) { textIssues = TextCheck.issues(book, limits: limits) }
        } else {
            textIssues = TextCheck.issues(book, limits: limits)
        }
        func refuseText() throws(BookRenderError) {
            checked.wait()
            if !textIssues.isEmpty {
                throw BookRenderError(BookError(kind: .validation, file: file ?? "book", issues: textIssues))
            }
        }
        let resolved: (ResolvedBook, ResourceLocator)
        do {
            resolved = try resolve(settings)
        } catch {
            try refuseText()
            throw error
        }
        try refuseText()
        return resolved
    }

    private func resolve(_ settings: RenderSettings) throws(BookRenderError) -> (ResolvedBook, ResourceLocator) {
        try naming(BookRenderError.wrap {
            let resources = try settings.resources()
            let resolver = Resolver(templatesDirectory: resources.templates,
                                    options: .init(theme: settings.theme, strict: settings.strict, profile: settings.profile,
                                                   threads: settings.workers, maxImagePixels: settings.limits.maxImagePixels))
            let tokens = try resolver.tokens(for: book)
            // The hyphenation patterns load while the pictures are read.
            if settings.workers > 1, tokens.typography.body.hyphenate {
                Hyphenator.preload(language: book.language ?? ResolvedBook.defaultLanguage)
            }
            return (try resolver.resolve(book, folder: folder, tokens: tokens), resources)
        })
    }

    /// The error with the book's file in front when its message does not name it already: a
    /// problem found while resolving (a token, a picture) is worded by its JSON path alone.
    private func naming<T>(_ body: @autoclosure () throws(BookRenderError) -> T) throws(BookRenderError) -> T {
        do {
            return try body()
        } catch {
            guard let file, error.kind == .invalidBook || error.kind == .unreadableInput else { throw error }
            var named = error
            // Each line that is a place in the book (`$.…`) gets the book's name; a theme's own lines name the theme.
            let lines = error.message.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.contains(where: { $0.hasPrefix("$") }) {
                named.message = lines.map { $0.hasPrefix("$") ? "\(file): \($0)" : String($0) }.joined(separator: "\n")
            } else if !error.message.contains(file) {
                named.message = "\(file): \(error.message)"
            }
            for i in named.diagnostics.indices where named.diagnostics[i].file == nil {
                named.diagnostics[i].file = file
            }
            throw named
        }
    }

    func typesetter(_ resolved: ResolvedBook, _ resources: ResourceLocator) throws -> Typesetter {
        let fonts = try FontLibrary.load(manifest: resources.fontManifest, bookFonts: resolved.bookFonts)
        return Typesetter(fonts: fonts, language: resolved.language, hyphenationExceptions: resources.hyphenation)
    }
}

/// Wall-clock seconds since it was made, for the report's time per stage.
struct StageClock {
    private let start = DispatchTime.now().uptimeNanoseconds
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
