import Foundation
import BookBase
import BookResolve
import BookModel

/// The book being filled in. Every new picture is written into the book file at once (atomically),
/// so a crash loses at most the picture being made.
actor BookFile {
    private(set) var book: Book
    let url: URL
    let folder: URL
    let writes: Bool

    /// Pictures an earlier run made without the main character's picture, by job key: the one place
    /// a picture already in the book is replaced, while the book still points at that very file.
    let replaceable: [String: String]

    init(book: Book, url: URL, folder: URL, writes: Bool, replaceable: [String: String] = [:]) {
        self.book = book; self.url = url; self.folder = folder; self.writes = writes; self.replaceable = replaceable
    }

    private func isEmpty(_ ref: ImageRef?, _ key: String) -> Bool {
        guard let ref else { return true }
        if case .path(let p) = ref, let made = replaceable[key] { return p == made }
        return false
    }

    /// Writes the picture under images/ (never over a file that exists: names carry the content hash)
    /// and points the job's place in the book at it.
    func store(_ data: Data, for job: IllustrationJob) throws -> String {
        let ext = data.starts(with: [0xFF, 0xD8, 0xFF]) ? "jpg" : "png"
        let safe = String(job.key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        let path = "images/generated-\(safe)-\(SHA256.hex(data).prefix(12)).\(ext)"
        let target = folder.appendingPathComponent(path)
        if writes, !FileManager.default.fileExists(atPath: target.path) { try AtomicOutput.write(data, to: target) }
        return path
    }

    /// Only fills an empty place: a picture the user supplied is never replaced.
    func apply(_ path: String, to job: IllustrationJob) throws {
        switch job.kind {
        case .character:
            guard book.characters?.main != nil, book.characters?.main?.image == nil else { return }
            book.characters!.main!.image = .path(path)
        case .cover:
            guard isEmpty(book.cover?.photo, job.key) else { return }
            if book.cover == nil { book.cover = Cover(title: book.title, subtitle: book.subtitle) }
            book.cover!.photo = .path(path)
        case .page:
            guard let i = job.pageIndex, book.pages.indices.contains(i), var picture = book.pages[i].picture, isEmpty(picture.image, job.key) else { return }
            picture.image = .path(path)
            book.pages[i].picture = picture
        }
        if writes { try AtomicOutput.write(try BookExporter.encode(book), to: url) }
    }

    /// A picture of the book, to send along as a reference: only a file inside the book's folder
    /// (see `BookFolder`), never what a link in it leads to elsewhere.
    func imageData(_ ref: ImageRef?) -> (Data, String)? {
        switch ref {
        case .inline(let d)?: return (d, "inline image")
        case .path(let p)?: return (try? BookFolder(folder).openFile(p))?.readAll().map { ($0, p) }
        case nil: return nil
        }
    }

    func mainCharacterImage() -> (Data, String)? { imageData(book.characters?.main?.image) }

    /// Why the main character's picture the book names cannot be sent; nil when it can (or none is named).
    func mainCharacterImageProblem() -> String? {
        guard case .path(let p)? = book.characters?.main?.image else { return nil }
        do {
            guard try BookFolder(folder).openFile(p).readAll() != nil else { return "\(p) could not be read" }
            return nil
        } catch {
            switch error {
            case .missing: return "\(p) does not exist in \(folder.path)"
            case .outside: return "\(p) is outside the book's folder"
            case .link(let path, let target): return "\(path) is a symbolic link (to \(target)), which is not followed"
            case .notA(let expected, let found): return "\(p) is \(found), not \(expected)"
            case .changed: return "\(p) changed while it was being opened"
            case .unreadable(let reason): return "\(p) cannot be read: \(reason)"
            }
        }
    }
    /// A page's picture as a style reference: never a draft or unreferenced picture this run makes
    /// again, which would pass the preview into the final pictures.
    func pageImage(_ index: Int) -> (Data, String)? {
        guard book.pages.indices.contains(index), let image = book.pages[index].picture?.image,
              !isEmpty(image, book.pages[index].id ?? "page-\(index + 1)") else { return nil }
        return imageData(image)
    }
    func coverPhoto() -> (Data, String)? { imageData(book.cover?.photo) }
}
