import Foundation
import BookBase

/// Pictures' analyses (`PictureAnalysis`) in the user's cache (`pictures/`), so a re-export,
/// `watch`, a batch run again or the service's next job does not decode the same picture again.
///
/// An entry's name is a hash of the picture's content hash (its `ImageAsset.id`, taken from the
/// bytes read anyway), `Thumbnail.version` and `SubjectEstimator.version`: a picture changed by
/// one byte, or a build that would analyse it otherwise, finds nothing. The entry states the
/// content hash it was made for and a hash of itself (`UserCache.read`); one that does not hold
/// is made again and written over, never trusted. Entries are written atomically.
public struct PictureAnalysisCache: Sendable {
    public let folder: URL

    public init(folder: URL = UserCache.folder("pictures")) {
        self.folder = folder
        hashes = FileHashMemo(folder: folder.appendingPathComponent("stamps", isDirectory: true))
    }

    /// The hashes of the picture files analysed, remembered by their `stat` (see `FileHashMemo`),
    /// kept and cleared with the analyses they lead to.
    public var hashes: FileHashMemo

    /// Raised when the entries' layout changes.
    static let format = 3
    static var magic: String { "bookrender picture analysis \(format)" }

    func entry(for id: String) -> URL {
        let key = ContentHash.hex("\(id)\n\(Thumbnail.version)\n\(SubjectEstimator.version)\n\(Self.format)")
        return folder.appendingPathComponent(key)
    }

    /// The analysis kept for the picture whose content hash is `id`, when one holds.
    public func read(_ id: String) -> PictureAnalysis? {
        guard let body = UserCache.read(entry(for: id), magic: Self.magic) else { return nil }
        let stated = Data((id + "\n").utf8)
        guard body.starts(with: stated) else { return nil }
        return PictureAnalysis(decoding: body.subdata(in: body.startIndex + stated.count..<body.endIndex))
    }

    /// Keeps `analysis` for the picture whose content hash is `id`; a cache that cannot be
    /// written is passed over.
    public func write(_ analysis: PictureAnalysis, for id: String) {
        var body = Data((id + "\n").utf8)
        body.append(analysis.encoded())
        UserCache.write(body, to: entry(for: id), magic: Self.magic)
    }

    /// The entry of the picture's analysis with its subject estimated for the book's main
    /// character `character` (a reference picture's id; nil for a book without one): the estimate
    /// depends on both.
    func estimateEntry(for id: String, character: String?) -> URL {
        let key = ContentHash.hex("\(id)\nestimate for \(character ?? "-")\n\(Thumbnail.version)\n\(SubjectEstimator.version)\n\(Self.format)")
        return folder.appendingPathComponent(key)
    }

    /// The analysis with its estimate kept for the picture `id` and the main character `character`,
    /// when one holds.
    public func readEstimated(_ id: String, character: String?) -> PictureAnalysis? {
        guard let body = UserCache.read(estimateEntry(for: id, character: character), magic: Self.magic) else { return nil }
        let stated = Data((id + "\n" + (character ?? "-") + "\n").utf8)
        guard body.starts(with: stated),
              let analysis = PictureAnalysis(decoding: body.subdata(in: body.startIndex + stated.count..<body.endIndex)),
              analysis.estimate != nil else { return nil }
        return analysis
    }

    /// Keeps `analysis`, estimate included, for the picture `id` and the main character `character`.
    public func writeEstimated(_ analysis: PictureAnalysis, for id: String, character: String?) {
        var body = Data((id + "\n" + (character ?? "-") + "\n").utf8)
        body.append(analysis.encoded())
        UserCache.write(body, to: estimateEntry(for: id, character: character), magic: Self.magic)
    }
}
