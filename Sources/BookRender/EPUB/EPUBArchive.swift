import Foundation
import ZIPFoundation

/// The EPUB's container: a ZIP whose first entry is `mimetype`, stored, so a reader knows the file
/// from its first bytes; then `META-INF/container.xml` pointing at the package; then the rest,
/// compressed, under `OEBPS/`. Every entry has the same date, so the same book gives the same bytes.
enum EPUBArchive {
    static let date = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01

    static let container = """
    <?xml version="1.0" encoding="UTF-8"?>
    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
    <rootfiles>
    <rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/>
    </rootfiles>
    </container>

    """

    /// Writes a new archive at `url` (an empty temporary file there is replaced).
    static func write(_ files: [(name: String, data: Data)], to url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        func add(_ name: String, _ data: Data, compressed: Bool) throws {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                                 permissions: 0o644, compressionMethod: compressed ? .deflate : .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try add("mimetype", Data("application/epub+zip".utf8), compressed: false)
        try add("META-INF/container.xml", Data(container.utf8), compressed: true)
        for file in files {
            // Pictures and fonts' own compression is all they get.
            let packed = ["jpg", "png", "mp3", "m4a"].contains((file.name as NSString).pathExtension)
            try add("OEBPS/" + file.name, file.data, compressed: !packed)
        }
    }
}
