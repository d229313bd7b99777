import Foundation
import ZIPFoundation

/// Unpacks a zipped book folder into the job's own folder, with the command line's confinement
/// rules: no entry may leave the folder (`..`, an absolute path), no links, and the archive may not
/// hold more files or more bytes, once inflated, than the limits allow (a zip bomb is stopped while
/// it inflates, whatever sizes its headers claim).
struct ZipIntake {
    var maxEntries: Int
    var maxBytes: Int

    /// `file`: the body as spooled to disk, read from there entry by entry.
    func unpack(_ file: URL, into folder: URL) throws(APIError) {
        let archive: Archive
        do { archive = try Archive(url: file, accessMode: .read) } catch {
            throw APIError(400, "invalidZip", "the body is not a readable zip archive; send a zip of the book's folder, or book.json as JSON")
        }
        var entries: [Entry] = []
        for entry in archive {
            entries.append(entry)
            guard entries.count <= maxEntries else {
                throw APIError(413, "zipTooManyFiles", "the zip holds more than \(maxEntries) entries; send only the book's folder (book.json and its images)")
            }
        }
        for entry in entries {
            try check(entry)
        }
        var total = 0
        for entry in entries where entry.type != .symlink {
            let target = folder.appendingPathComponent(entry.path)
            if entry.type == .directory {
                try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                continue
            }
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: target.path, contents: nil)
                let handle = try FileHandle(forWritingTo: target)
                defer { try? handle.close() }
                let limit = maxBytes
                _ = try archive.extract(entry) { chunk in
                    total += chunk.count
                    if total > limit { throw Oversize() }
                    // FileHandle's plain write traps on a full disk; this one throws.
                    do { try handle.write(contentsOf: chunk) } catch { throw Unstored() }
                }
            } catch is Oversize {
                throw APIError(413, "zipTooLarge", "the zip inflates to more than \(maxBytes) bytes; send smaller images (the service's --max-unpacked-bytes)")
            } catch is Unstored {
                throw APIError(507, "storage", "the service could not store the book's files; its disk may be full; try again later")
            } catch {
                throw APIError(400, "invalidZip", "cannot unpack \(ClientText.clipped(entry.path, to: 200)) from the zip: its data is damaged or compressed in a way zip archives do not use; make the archive again from the book's folder")
            }
        }
    }

    private func check(_ entry: Entry) throws(APIError) {
        let path = ClientText.clipped(entry.path, to: 200)
        if entry.type == .symlink {
            throw APIError(400, "zipLink", "the zip entry \(path) is a symbolic link; links are refused, put the file itself in the zip")
        }
        if path.hasPrefix("/") || path.hasPrefix("\\") || path.contains(":") {
            throw APIError(400, "zipAbsolutePath", "the zip entry \(path) has an absolute path; zip the book's folder with paths relative to it")
        }
        let parts = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        if parts.contains("..") {
            throw APIError(400, "zipEscapes", "the zip entry \(path) climbs out of the book's folder with ..; zip the book's folder with paths relative to it")
        }
    }
}

private struct Oversize: Error {}
private struct Unstored: Error {}
