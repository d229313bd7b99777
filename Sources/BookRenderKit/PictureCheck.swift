import Foundation
import BookModel
import BookResolve

extension BookDocument {
    /// Decodes the book's pictures as drawing them would (see `ImageCheck.data`), each file once
    /// however often it is used (a JPEG resolve decoded whole for its thumbnail, or that an earlier
    /// run found whole in the analysis cache, is not decoded again), on `threads` threads: `validate` checks them all, so that what an
    /// export would refuse it refuses first; an export checks the JPEGs it passes into the PDF
    /// byte for byte (`only`), which nothing else decodes, so a damaged one is refused rather than
    /// printed. Problems come in the book's order, each with its JSON path.
    func checkPictureData(_ resolved: ResolvedBook, threads: Int,
                          only wanted: (ImageAsset) -> Bool = { _ in true }) throws(BookRenderError) {
        var uses: [(ImageAsset, String)] = []
        if let asset = resolved.cover.image.asset {
            uses.append((asset, resolved.book.cover?.photo != nil ? "$.cover.photo" : "$.characters.main.image"))
        }
        for page in resolved.pages {
            if let asset = page.image.asset { uses.append((asset, "$.pages[\(page.index)].image")) }
        }
        if let asset = resolved.mainCharacterImage { uses.append((asset, "$.characters.main.image")) }
        if let asset = resolved.authorPhoto { uses.append((asset, "$.matter.authorPhoto")) }
        if let asset = resolved.publisherLogo { uses.append((asset, "$.matter.publisherLogo")) }
        var seen = Set<String>()
        let unique = uses.filter {
            wanted($0.0) && !resolved.decodedPictures.contains($0.0.id) && seen.insert($0.0.origin).inserted
        }
        guard !unique.isEmpty else { return }

        let found = Problems(count: unique.count)
        let lanes = max(1, min(threads, unique.count))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for i in stride(from: lane, to: unique.count, by: lanes) {
                let (asset, jsonPath) = unique[i]
                do {
                    try ImageCheck.data(asset.data, info: asset.info)
                    // Checked once per content: the next run finds it decoded.
                    if asset.info.format == .jpeg, asset.id.utf8.count == 32, let cache = resolved.analysisCache,
                       cache.read(asset.id) == nil {
                        cache.write(PictureAnalysis(decodes: true, thumbnail: nil), for: asset.id)
                    }
                } catch {
                    found.set(i, BookIssue(path: jsonPath, message: "\(asset.origin) is not a usable image: \(error)"))
                }
            }
        }
        let problems = found.all
        guard problems.isEmpty else {
            throw BookRenderError(BookError(kind: .validation, file: file ?? "book", issues: problems))
        }
    }
}

/// One slot per picture, filled from several threads.
private final class Problems: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [BookIssue?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ issue: BookIssue) { lock.withLock { slots[i] = issue } }
    var all: [BookIssue] { lock.withLock { slots.compactMap { $0 } } }
}
