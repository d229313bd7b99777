import Foundation

/// A file carried inside the PDF (the catalog's `/EmbeddedFiles`): a narrated book's recordings,
/// which a reader lists as the document's attachments. Only for a PDF without a print profile:
/// PDF/X forbids embedded files, and a printer has no use for them.
public struct PDFAttachment: Sendable, Equatable {
    /// The name readers show and save it under.
    public var name: String
    public var file: URL
    /// Its media type (`audio/mpeg`), the embedded file's `/Subtype`.
    public var mediaType: String
    /// What it is, the file specification's `/Desc`.
    public var description: String

    public init(name: String, file: URL, mediaType: String, description: String) {
        self.name = name; self.file = file; self.mediaType = mediaType; self.description = description
    }
}

extension PDFFinisher {
    /// Embeds `attachments` as the catalog's `/Names /EmbeddedFiles`, a name tree sorted by name
    /// (two files of one name are told apart by a number). The bytes go in as they are: the
    /// recordings are compressed already.
    static func embed(_ attachments: [PDFAttachment], into doc: QPDFDocument) throws {
        guard !attachments.isEmpty else { return }
        var named: [(String, PDFAttachment)] = []
        var used = Set<String>()
        for attachment in attachments {
            var name = attachment.name, n = 1
            while used.contains(name) {
                n += 1
                let url = URL(fileURLWithPath: attachment.name)
                let stem = url.deletingPathExtension().lastPathComponent, ext = url.pathExtension
                name = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            }
            used.insert(name)
            named.append((name, attachment))
        }
        // Name trees are sorted by the names' bytes.
        named.sort { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        var entries: [QPDFDocument.Handle] = []
        for (name, attachment) in named {
            let data: Data
            do {
                data = try Data(contentsOf: attachment.file)
            } catch {
                throw FinishingError("cannot read \(attachment.file.path) to attach it: \(error.localizedDescription)")
            }
            let stream = try doc.indirect(try doc.stream(data: data, dictionary: [
                ("/Type", try doc.name("EmbeddedFile")),
                // qpdf writes the slash inside the name as #2F.
                ("/Subtype", try doc.name(attachment.mediaType)),
                ("/Params", try doc.dictionary([("/Size", try doc.integer(data.count))])),
            ]))
            let spec = try doc.indirect(try doc.dictionary([
                ("/Type", try doc.name("Filespec")),
                ("/F", try doc.text(name)),
                ("/UF", try doc.text(name)),
                ("/Desc", try doc.text(attachment.description)),
                ("/AFRelationship", try doc.name("Supplement")),
                ("/EF", try doc.dictionary([("/F", stream), ("/UF", stream)])),
            ]))
            entries.append(try doc.text(name))
            entries.append(spec)
        }
        let root = try doc.root()
        var names = try doc.get(root, "/Names")
        if try !doc.isDictionary(names) { names = try doc.dictionary() }
        try doc.set(names, "/EmbeddedFiles", try doc.dictionary([("/Names", try doc.array(entries))]))
        try doc.set(root, "/Names", names)
    }
}
