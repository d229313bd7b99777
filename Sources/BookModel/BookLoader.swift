import Foundation

/// A book ready for the resolve stage, with where it came from.
public struct LoadedBook: Sendable {
    public var book: Book
    /// The folder of the book file; image paths resolve against it and may not leave it.
    public var folder: URL
    public var source: SourceFormat
    /// Each names the file, like errors do: unknown fields, skipped app items, fields a page type ignores.
    public var warnings: [String]

    public init(book: Book, folder: URL, source: SourceFormat, warnings: [String] = []) {
        self.book = book; self.folder = folder; self.source = source; self.warnings = warnings
    }
}

/// The load stage: read a file, recognise its format, decode, import and validate.
public enum BookLoader {
    /// The schema versions of book.json this build reads.
    public static let supportedSchemas = [Book.currentSchema]

    /// Loads `url`, or `url/book.json` when `url` is a folder. Throws `BookError`.
    public static func load(contentsOf url: URL) throws(BookError) -> LoadedBook {
        // Foundation would fetch an http URL; a book and its images are local files.
        guard url.isFileURL else {
            throw BookError(kind: .io, file: url.absoluteString, message: "only local files are read; download the book first")
        }
        var file = url
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            file = url.appendingPathComponent("book.json")
        }
        let name = displayName(of: file)
        let data = try readRegularFile(file, name: name, wasFolder: isFolder.boolValue)
        return try load(data: data, name: name, folder: file.deletingLastPathComponent())
    }

    /// The book file's bytes. Only a regular file is read: a FIFO named as the book would block the
    /// run until something writes to it, a device would never end. It is opened without blocking
    /// and checked through the descriptor it is then read from. The book.json of a folder is the
    /// folder's own file: a symbolic link there is not followed, as no link in a book's folder is.
    private static func readRegularFile(_ file: URL, name: String, wasFolder: Bool) throws(BookError) -> Data {
        func failure(_ code: Int32) -> BookError {
            BookError(kind: .io, file: name, message: readFailure(code, wasFolder: wasFolder))
        }
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        let fd: Int32
        if wasFolder {
            let folder = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { throw failure(errno) }
            fd = openat(folder, file.lastPathComponent, flags | O_NOFOLLOW)
            let code = errno
            close(folder)
            if fd < 0 && code == ELOOP {
                throw BookError(kind: .io, file: name, message: "is a symbolic link; bookrender follows no links in a book's folder: put the book file itself there")
            }
            guard fd >= 0 else { throw failure(code) }
        } else {
            fd = open(file.path, flags)
            guard fd >= 0 else { throw failure(errno) }
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(errno) }
        try requireRegular(status, name: name)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var data = Data()
        data.reserveCapacity(Int(status.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw BookError(kind: .io, file: name, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return data }
            data.append(contentsOf: buffer[..<got])
        }
    }

    private static func requireRegular(_ status: stat, name: String) throws(BookError) {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw BookError(kind: .io, file: name, message: "is \(kind), not a file; name the book's book.json (or the app's saved file) itself")
    }

    /// Loads a book from bytes; `name` is how messages call the file, `folder` is where its images are.
    public static func load(data: Data, name: String, folder: URL) throws(BookError) -> LoadedBook {
        let document: JSONDocument
        do {
            document = try JSONDocument(data: data)
        } catch {
            let (line, column) = TextPosition.of(error.offset, in: [UInt8](data))
            throw BookError(kind: .syntax, file: name, line: line, column: column, message: error.message)
        }
        guard let members = document.root.members else {
            throw BookError(kind: .unsupported, file: name, path: "$", line: 1, column: 1,
                message: "the file holds \(document.root.summary), not an object; expected one of: \(SourceFormat.recognised)")
        }
        let keys = Set(members.map(\.key))
        guard let format = SourceFormat.detect(topLevelKeys: keys) else {
            if keys.contains("pages"), keys.contains("title") || keys.contains("kind") {
                throw BookError(kind: .schema, file: name, path: "$", line: 1, column: 1,
                    message: "required field \"schema\" is missing; a book.json starts with \"schema\": \(Book.currentSchema)")
            }
            throw BookError(kind: .unsupported, file: name,
                message: "not a format bookrender recognises; expected one of: \(SourceFormat.recognised)")
        }

        var warnings: [BookIssue] = []
        let duplicates = DuplicateKeys.find(in: document).sorted { $0.offset < $1.offset }.map(\.issue)
        let book: Book
        if let importer = format.importer {
            var imported = try importBook(importer, format, data: data, document: document, file: name)
            if let source = imported.narrationSource, let narration = imported.book.narration,
               let absent = narration.files.first(where: { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }) {
                imported.book.narration = nil
                imported.warnings.append(PathIssue(path: source,
                    message: "the recording \(absent) is not beside the file; the book has no narration until it is"))
            }
            book = imported.book
            // The apps' encoder never writes a key twice; a hand-edited file is read as the decoder reads it.
            warnings = duplicates.map { BookIssue(path: $0.path, line: $0.line, column: $0.column,
                                                   message: "appears twice in the same object; the first one is used") }
            warnings += imported.warnings.located(in: document)
        } else {
            try checkSchemaVersion(document, file: name)
            if !duplicates.isEmpty { throw BookError(kind: .schema, file: name, issues: duplicates) }
            warnings = UnknownFields.warnings(in: document)
            do {
                book = try BookDecoding.decode(data, document: document, file: name)
            } catch {
                throw error.adding(warnings)
            }
        }

        let checks = BookValidator.check(book)
        if format == .bookJSON {
            if !checks.errors.isEmpty {
                throw BookError(kind: .validation, file: name, issues: checks.errors.located(in: document)).adding(warnings)
            }
            warnings += checks.warnings.located(in: document)
        } else {
            // The paths are in the converted book, which is not the file the user has open.
            let note = " (in the book converted from this \(format))"
            if !checks.errors.isEmpty {
                throw BookError(kind: .validation, file: name,
                                issues: checks.errors.map { BookIssue(path: $0.path.rendered, message: $0.message + note) })
            }
            warnings += checks.warnings.map { BookIssue(path: $0.path.rendered, message: $0.message + note) }
        }
        return LoadedBook(book: book, folder: folder, source: format, warnings: warnings.map { $0.formatted(file: name) })
    }

    /// The format of a file's bytes, or nil when it is not JSON or none that bookrender reads.
    public static func detectFormat(of data: Data) -> SourceFormat? {
        guard let members = (try? JSONDocument(data: data))?.root.members else { return nil }
        return SourceFormat.detect(topLevelKeys: Set(members.map(\.key)))
    }

    // MARK: steps

    private static func checkSchemaVersion(_ document: JSONDocument, file: String) throws(BookError) {
        guard let node = document.root["schema"] else { return }
        let (line, column) = document.position(of: node.offset)
        let supported = supportedSchemas.map(String.init).joined(separator: ", ")
        guard case .number(let text) = node.value, let version = Int(text) else {
            throw BookError(kind: .schema, file: file, path: "$.schema", line: line, column: column,
                message: "expected the schema version, an integer (\(supported)), found \(node.summary)")
        }
        guard supportedSchemas.contains(version) else {
            let advice = version > Book.currentSchema ? "; this file needs a newer bookrender" : ""
            throw BookError(kind: .unsupported, file: file, path: "$.schema", line: line, column: column,
                message: "schema \(version) is not supported; this bookrender reads schema \(supported)\(advice)")
        }
    }

    private static func importBook(_ importer: any AppImporter.Type, _ format: SourceFormat, data: Data, document: JSONDocument,
                                   file: String) throws(BookError) -> ImportedBook {
        do {
            return try importer.book(from: data)
        } catch let error as DecodingError {
            let problem = DecodingProblem(error, in: document)
            var issue = problem.issue
            issue.message += " (reading it as a \(format))"
            throw BookError(kind: .schema, file: file, issues: [issue])
        } catch let failure as ImportFailure {
            throw BookError(kind: .validation, file: file, issues: [PathIssue(path: failure.path, message: failure.message).located(in: document).issue])
        } catch {
            throw BookError(kind: .schema, file: file, message: "\(error)")
        }
    }

    /// The path as the user gave it (relative stays relative), so a batch log names each book unambiguously.
    private static func displayName(of url: URL) -> String {
        url.isFileURL ? url.relativePath : url.absoluteString
    }

    private static func readFailure(_ code: Int32, wasFolder: Bool) -> String {
        switch code {
        case ENOENT, ENOTDIR: return wasFolder ? "the folder has no book.json" : "no such file"
        case EACCES, EPERM: return "cannot be read: permission denied"
        default: return "cannot be read: \(String(cString: strerror(code)))"
        }
    }
}

private extension BookError {
    func adding(_ warnings: [BookIssue]) -> BookError {
        var e = self
        e.warnings += warnings.map { $0.formatted(file: file) }
        return e
    }
}
