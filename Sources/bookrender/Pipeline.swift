import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout

/// load → resolve → layout, shared by every command that needs a page tree.
struct Pipeline {
    var theme: String?
    var strict = false
    var profile: String?
    /// Threads for reading images and laying out the book's long texts (1: this one alone).
    var threads = ProcessInfo.processInfo.activeProcessorCount

    func load(_ path: String) throws -> LoadedBook {
        // The font set loads while the book is read and resolved; `resolve` reports a missing one.
        if threads > 1, let resources = try? ResourceLocator.locate() { FontLibrary.preload(manifest: resources.fontManifest) }
        return try BookLoader.load(contentsOf: URL(fileURLWithPath: path))
    }

    func resolve(_ loaded: LoadedBook) throws -> (ResolvedBook, ResourceLocator) {
        let resources = try ResourceLocator.locate()
        let resolver = Resolver(templatesDirectory: resources.templates,
                                options: .init(theme: theme, strict: strict, profile: profile, threads: threads))
        let tokens = try resolver.tokens(for: loaded.book)
        // The hyphenation patterns load while the pictures are read.
        if threads > 1, tokens.typography.body.hyphenate {
            Hyphenator.preload(language: loaded.book.language ?? ResolvedBook.defaultLanguage)
        }
        return (try resolver.resolve(loaded.book, folder: loaded.folder, tokens: tokens), resources)
    }

    func typesetter(_ resolved: ResolvedBook, resources: ResourceLocator) throws -> Typesetter {
        let fonts = try FontLibrary.load(manifest: resources.fontManifest, extraDirectories: resolved.bookFontDirectories)
        return Typesetter(fonts: fonts, language: resolved.language)
    }

    func layout(_ resolved: ResolvedBook, resources: ResourceLocator) throws -> PageTree {
        BookLayouter(typesetter: try typesetter(resolved, resources: resources), textThreads: threads).layout(resolved)
    }

    /// Lays out and hands each page to `eachPage` as soon as it is final (see `BookLayouter`);
    /// without `keepingText`, handed-over pages lose their text boxes.
    func layout(_ resolved: ResolvedBook, resources: ResourceLocator, keepingText: Bool,
                eachPage: (PageNode) throws -> Void) throws -> PageTree {
        var layouter = BookLayouter(typesetter: try typesetter(resolved, resources: resources), textThreads: threads)
        layouter.keepsHandedOverText = keepingText
        let tree = try layouter.layout(resolved, eachPage: eachPage)
        // Its typesetters hold Pango's fonts and, when pages keep their text, the texts laid out
        // ahead: freeing them here would come between the last page and the finished PDF. Only
        // `export` lays out this way, one book per process.
        LeftToExit.keep(layouter)
        return tree
    }

    func pageTree(_ path: String) throws -> (LoadedBook, ResolvedBook, PageTree) {
        let loaded = try load(path)
        let (resolved, resources) = try resolve(loaded)
        return (loaded, resolved, try layout(resolved, resources: resources))
    }
}
