import Foundation
import BookBase

/// One side of a comparison: named pages, decoded one at a time so a long book never holds more
/// than a page per side in memory. Pages are paired across sides by name.
public final class PageSource {
    public enum Kind: String, Sendable, Codable {
        /// A single PNG file.
        case png
        /// A folder of PNG files (not its subfolders).
        case folder
        /// A PDF, each page rasterized and named as bookrender names page PNGs (`page-001.png`).
        case pdf
        /// Images handed over in memory.
        case memory
    }

    private enum Storage {
        case files([String: URL])
        case rasterized([String: URL], temporaryFolder: URL)
        case memory([String: RGBAImage])
    }

    public let kind: Kind
    /// The input as the user named it, for the report.
    public let path: String
    /// Page names in page order.
    public let names: [String]
    private let storage: Storage

    private init(kind: Kind, path: String, names: [String], storage: Storage) {
        self.kind = kind
        self.path = path
        self.names = names
        self.storage = storage
    }

    deinit {
        if case .rasterized(_, let folder) = storage { try? FileManager.default.removeItem(at: folder) }
    }

    /// Opens a PNG file, a PDF or a folder of PNGs, telling files apart by their first bytes.
    public static func open(_ url: URL, dpi: Double = 72, rasterizer: Rasterizer = .pdftoppm) throws(CompareError) -> PageSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CompareError(.unreadable, "\(url.path) does not exist")
        }
        if isDirectory.boolValue { return try folder(url) }
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 8) ?? Data()
        } catch {
            throw CompareError(.unreadable, "cannot read \(url.path): \(RGBAImage.reason(error))")
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return png(url) }
        if head.starts(with: Array("%PDF-".utf8)) { return try pdf(url, dpi: dpi, rasterizer: rasterizer) }
        throw CompareError(.unreadable, "\(url.path) is neither a PNG, a PDF nor a folder")
    }

    /// One PNG file; its page is named by the file's name.
    public static func png(_ url: URL) -> PageSource {
        PageSource(kind: .png, path: url.path, names: [url.lastPathComponent],
                   storage: .files([url.lastPathComponent: url]))
    }

    /// Every `.png` file directly in `url`, named by file name, in natural order (page-2 before page-10).
    public static func folder(_ url: URL) throws(CompareError) -> PageSource {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw CompareError(.unreadable, "cannot list \(url.path): \(RGBAImage.reason(error))")
        }
        var files: [String: URL] = [:]
        for name in entries where name.lowercased().hasSuffix(".png") && !name.hasPrefix(".") {
            let file = url.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = file
            }
        }
        return PageSource(kind: .folder, path: url.path, names: sortedNames(files.keys), storage: .files(files))
    }

    /// A PDF's pages at `dpi`, named `page-001.png`… so they pair with bookrender's page PNGs.
    public static func pdf(_ url: URL, dpi: Double = 72, rasterizer: Rasterizer = .pdftoppm) throws(CompareError) -> PageSource {
        try PDFRasterizer.checkDPI(dpi)
        do {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("bookrender-compare-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CompareError(.rasterizer, "cannot make a temporary folder for \(rasterizer.program): \(RGBAImage.reason(error))")
            }
            let pages: [URL]
            do {
                pages = try PopplerProgram.rasterize(url, dpi: dpi, using: rasterizer, into: folder)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            var files: [String: URL] = [:]
            var names: [String] = []
            for (index, page) in pages.enumerated() {
                let name = PageFileName.page(index + 1)
                names.append(name)
                files[name] = page
            }
            return PageSource(kind: .pdf, path: url.path, names: names, storage: .rasterized(files, temporaryFolder: folder))
        }
    }

    /// Pages already in memory, in the order given.
    public init(images: [(name: String, image: RGBAImage)], label: String = "(in memory)") {
        var table: [String: RGBAImage] = [:]
        for (name, image) in images { table[name] = image }
        kind = .memory
        path = label
        names = images.map(\.name)
        storage = .memory(table)
    }

    /// Decodes (or rasterizes) one page.
    public func image(named name: String) throws(CompareError) -> RGBAImage {
        switch storage {
        case .files(let files), .rasterized(let files, _):
            guard let url = files[name] else { throw CompareError(.unreadable, "\(path) has no page \(name)") }
            return try RGBAImage(contentsOf: url)
        case .memory(let table):
            guard let image = table[name] else { throw CompareError(.unreadable, "\(path) has no page \(name)") }
            return image
        }
    }

    /// Where a page comes from, for the report: its file, or the PDF and page number.
    public func location(of name: String) -> String {
        switch storage {
        case .files(let files):
            return files[name]?.path ?? path
        case .rasterized:
            let number = (names.firstIndex(of: name) ?? 0) + 1
            return "\(path) page \(number)"
        case .memory:
            return "\(path) \(name)"
        }
    }

    /// The resolution the first of the user's PNG pages records (its pHYs chunk); nil for a PDF,
    /// pages in memory, or PNGs that record none.
    public var recordedDPI: Double? {
        guard case .files(let files) = storage, let first = names.first, let url = files[first] else { return nil }
        return PNGResolution.dpi(of: url)
    }

    /// Whether `url` is a file that starts as a PDF does.
    static func isPDF(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 5)) == Data("%PDF-".utf8)
    }

    /// The PNG file a page is stored in, when it is one the user gave (not a rasterized PDF page).
    public func file(of name: String) -> URL? {
        if case .files(let files) = storage { return files[name] }
        return nil
    }

    static func sortedNames<S: Sequence>(_ names: S) -> [String] where S.Element == String {
        names.sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
    }
}
