import ArgumentParser
import Foundation
import BookRenderKit

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep a folder of page PNGs up to date while a book is edited.",
        discussion: """
        Renders every page once, then waits. When book.json, a picture or font in the book's \
        folder, or a theme or token file in templates/ changes, the book is laid out again and \
        only the pages that look different are rewritten; each line printed says what changed, \
        which pages were redrawn and how long it took. A book that stops being valid mid-edit \
        prints its error and leaves the pages as they were until the next save. Ctrl-C stops.
        """)

    @Argument(help: "The book: bookrender's book.json, or a \(SourceFormat.appNames) file.")
    var book: String

    @Option(name: .long, help: "The folder for the page PNGs (page-NNN.png).")
    var png: String

    @Option(name: .long, help: "PNG resolution in dots per inch.")
    var dpi: Double = 150

    @Option(name: .long, help: "Use this theme from templates/ instead of the book's own.")
    var theme: String?

    @Option(name: .long, help: "Threads for drawing pages (default: one per core).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Print each refresh as one line of JSON on stdout (schema/report.schema.json) instead of text.")
    var json = false

    @OptionGroup(title: "Limits") var limits: LimitFlags

    func validate() throws {
        guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
    }

    func run() throws {
        let bookURL = URL(fileURLWithPath: book)
        let folder = URL(fileURLWithPath: png)
        let preview: BookPreview
        do throws(BookRenderError) {
            preview = try BookPreview(book: bookURL, png: folder, dpi: dpi,
                                      settings: RenderSettings(theme: theme, workers: workers, limits: limits.limits))
            // Watching from before the first render: a save while it renders, or just after it
            // is reported, is seen.
            try preview.startWatching()
            // A book that cannot be rendered at the start is an error: nothing was ever shown.
            report(try preview.refresh(), cause: "rendered \(book)")
        } catch {
            throw ResultOutput(command: "watch", json: json).fail(error)
        }
        Console.error("watching \(book), its folder and the themes; Ctrl-C stops")
        while true {
            let changed: [String]
            do throws(BookRenderError) { changed = try preview.waitForChanges() } catch { throw Exit.fail(error) }
            let cause = Self.describe(changed, from: bookURL.deletingLastPathComponent())
            do throws(BookRenderError) {
                report(try preview.refresh(), cause: cause)
            } catch {
                Console.error("\(cause): error: \(error.message); the pages stay as they were")
                if json { Self.printLine(CommandReport(command: "watch", RefreshFailure(cause: cause, error: error))) }
            }
        }
    }

    private func report(_ refresh: BookPreview.Refresh, cause: String) {
        for warning in refresh.warnings { Console.error("\(warning)") }
        if json {
            Self.printLine(CommandReport(command: "watch", RefreshBody(cause: cause, refresh: refresh)))
            return
        }
        var line = "\(cause): "
        if refresh.written.isEmpty && refresh.removed.isEmpty {
            line += "no page changed"
        } else {
            line += refresh.written.isEmpty ? "" : "redrew \(Self.pages(refresh.written))"
            if !refresh.removed.isEmpty { line += (refresh.written.isEmpty ? "" : ", ") + "removed \(Self.pages(refresh.removed))" }
        }
        line += String(format: " of %d in %.2f s", refresh.pageCount, refresh.seconds)
        Console.out(line)
    }

    /// "page 3", "pages 2, 5–7".
    static func pages(_ numbers: [Int]) -> String {
        var runs: [String] = []
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count && numbers[j + 1] == numbers[j] + 1 { j += 1 }
            runs.append(i == j ? "\(numbers[i])" : "\(numbers[i])–\(numbers[j])")
            i = j + 1
        }
        return (numbers.count == 1 ? "page " : "pages ") + runs.joined(separator: ", ")
    }

    /// The changed files, named from the book's folder when they are in it.
    private static func describe(_ paths: [String], from folder: URL) -> String {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let names = paths.map { $0.hasPrefix(base) ? String($0.dropFirst(base.count)) : $0 }
        return names.count <= 3 ? names.joined(separator: ", ") + " changed" : "\(names[0]) and \(names.count - 1) more changed"
    }

    /// One compact line per refresh, so a program can read the stream line by line.
    private static func printLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        Console.out(String(decoding: data, as: UTF8.self))
    }
}

/// A refresh as `watch --json` prints it.
struct RefreshBody: Encodable {
    var cause: String
    var written: [Int]
    var removed: [Int]
    var pageCount: Int
    var seconds: Double
    var findings: [Diagnostic]

    init(cause: String, refresh: BookPreview.Refresh) {
        self.cause = cause; written = refresh.written; removed = refresh.removed; pageCount = refresh.pageCount
        seconds = refresh.seconds; findings = refresh.warnings
    }
}

/// A save that could not be rendered: the error, and the pages left as they were.
struct RefreshFailure: Encodable {
    var cause: String
    var error: BookRenderError
    var findings: [Diagnostic] { error.diagnostics }
    private enum Keys: String, CodingKey { case cause, error, findings }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(cause, forKey: .cause)
        try c.encode(error, forKey: .error)
        try c.encode(findings, forKey: .findings)
    }
}
