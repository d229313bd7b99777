import Foundation
import BookBase
import BookConfig
import BookResolve

/// SHA-256 over everything that decides a job's output: the renderer (its executable, themes and
/// font manifest), the export flags, the book file and the bytes of every image it resolves to,
/// and the fonts the book brings. Equal fingerprints mean the old output can be kept.
public struct Fingerprinter: Sendable {
    /// The part shared by every job of a run: which renderer, with which data files.
    public let renderer: String

    public init(executable: URL, resources: ResourceLocator?) {
        let h = Hasher256()
        h.add("bookrender-batch-2")
        // A release build is large (the Swift runtime is linked in): SHA-256 of it held up every
        // batch before its first job. Its XXH3-128 names its content as well, in a fraction of the time.
        h.add(fileDigest: executable)
        if let resources {
            for url in Self.files(under: resources.templates) + [resources.fontManifest] {
                h.add(url.lastPathComponent)
                h.add(file: url)
            }
        }
        renderer = h.finish()
    }

    /// nil when the book cannot be read or resolved: such a job always runs, and its export
    /// reports the problem.
    public func fingerprint(_ job: BatchJob, arguments: [String], resources: ResourceLocator?) -> String? {
        guard let resources else { return nil }
        let settings = RenderSettings(theme: job.options.theme, profile: job.profile, strict: job.options.strict ?? false,
                                      workers: 1, home: resources.root)
        guard let document = try? BookDocument.open(URL(fileURLWithPath: job.input), settings: settings),
              let resolved = try? document.resolve() else { return nil }
        let h = Hasher256()
        h.add(renderer)
        h.add(arguments.joined(separator: "\u{0}"))
        var file = URL(fileURLWithPath: job.input)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDir), isDir.boolValue {
            file = file.appendingPathComponent("book.json")
        }
        h.add(file: file)
        let images = [resolved.cover.image.asset, resolved.mainCharacterImage] + resolved.pages.map(\.image.asset)
        for asset in images { h.add(asset?.id ?? "-") }
        for font in resolved.bookFonts.fonts { h.add(font.file.path); h.add(font.sha256) }
        return h.finish()
    }

    static func files(under folder: URL) -> [URL] {
        guard let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return e.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}

/// Incremental SHA-256; files are fed in blocks so a large image is never held whole.
struct Hasher256 {
    private let sha = SHA256()

    func add(_ text: String) {
        sha.update(Data(text.utf8))
        sha.update(Data([0]))
    }

    func add(file url: URL) {
        add(sha.update(fileAt: url.path) != nil ? "<eof>" : "<unreadable>")
    }

    /// The file's XXH3-128 (see `ContentHash`), read in blocks.
    func add(fileDigest url: URL) {
        let content = ContentHash()
        add(content.update(fileAt: url.path) != nil ? content.finish() : "<unreadable>")
    }

    func finish() -> String { sha.finish() }
}

/// What a finished job leaves beside its PDF (`.NAME.pdf.batch.json`), so a later run can tell
/// the output is current. Written to a temporary file and renamed, after the PDF is in place:
/// a run killed in between leaves a PDF without state, which the next run simply renders again.
public struct JobState: Codable, Sendable, Equatable {
    public var fingerprint: String
    public var pages: Int?
    public var outputBytes: Int
    /// What the export that wrote the PDF warned of, so a skipped job still reports it.
    public var placeholders: Int?
    public var warnings: [String]?

    public static func url(for output: String) -> URL {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).batch.json")
    }

    public static func read(for output: String) -> JobState? {
        guard let data = try? Data(contentsOf: url(for: output)) else { return nil }
        return try? JSONDecoder().decode(JobState.self, from: data)
    }

    public func write(for output: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicOutput.write(try encoder.encode(self), to: Self.url(for: output))
    }

    /// The state matches and the PDF it describes is still there, at the size it was written.
    public static func isCurrent(output: String, fingerprint: String?) -> JobState? {
        guard let fingerprint, let state = read(for: output), state.fingerprint == fingerprint,
              let size = (try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int,
              size == state.outputBytes else { return nil }
        return state
    }
}
