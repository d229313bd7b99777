import Foundation
import CContentColour

/// Marks what a tagged PDF paints outside its structure (page fills, rules, folios, placeholder
/// art) as `/Artifact`, which PDF/UA asks of all content that is not tagged (ISO 14289-1, 7.1).
/// cairo 1.16 fails the surface on an `Artifact` tag, so the page content streams are rewritten
/// afterwards: each page gets a new, Flate-compressed content stream, written by both finishing
/// paths (in an incremental update as a new stream object); pictures and forms stay as they are.
enum ArtifactMarking {
    /// Gives every page of `doc`, which was read from `source`, its content with the unmarked
    /// painting marked as artifacts. Nothing for a PDF without a structure tree.
    static func mark(_ doc: QPDFDocument, source: URL) throws {
        guard try doc.hasStructureTree else { return }
        let contents = try markedContents(of: source)
        let count = try doc.pageCount
        guard contents.count == count else {
            throw FinishingError("\(source.path): \(contents.count) page contents marked for \(count) pages")
        }
        let flate = try doc.name("FlateDecode")
        for (index, data) in contents.enumerated() {
            let page = try doc.page(index)
            let stream = try doc.indirect(try doc.stream(data: data, filter: flate))
            try doc.set(page, "/Contents", stream)
        }
    }

    /// Each page's new content stream, compressed, in page order.
    static func markedContents(of file: URL) throws -> [Data] {
        final class Pages { var data: [Data] = [] }
        let pages = Pages()
        var message = [CChar](repeating: 0, count: 1024)
        let status = withExtendedLifetime(pages) {
            content_mark_artifacts(file.path, { context, _, bytes, count in
                let pages = Unmanaged<Pages>.fromOpaque(context!).takeUnretainedValue()
                pages.data.append(bytes.map { Data(bytes: $0, count: count) } ?? Data())
                return 0
            }, Unmanaged.passUnretained(pages).toOpaque(), &message, message.count)
        }
        guard status == 0 else {
            throw FinishingError("marking the untagged content of \(file.path) as artifacts: \(String(cString: message))")
        }
        return pages.data
    }
}
