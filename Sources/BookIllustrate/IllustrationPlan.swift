import Foundation
import BookModel
import BookConfig

/// Which pictures a book still needs, in the order a reader meets them.
public struct IllustrationPlan: Sendable {
    /// The main character's reference, when the book has a main character but no picture of it.
    public var character: IllustrationJob?
    /// Cover and the first page: they block a reader, so they go first.
    public var first: [IllustrationJob]
    /// The rest in reading order; they wait for the first page, which is their style reference.
    public var rest: [IllustrationJob]
    /// The first illustrated page (generated or not): the style reference for the others.
    public var firstPageIndex: Int?
    /// The key of the first page when it is itself to be generated.
    public var firstPageJob: String?
    /// Jobs left out by --max-images.
    public var skipped: [IllustrationJob] = []

    public var all: [IllustrationJob] { (character.map { [$0] } ?? []) + first + rest }

    public init(book: Book, trim: TrimSize, maxImages: Int? = nil) {
        let page = AspectRatio(width: trim.width, height: trim.height)
        let trimPlace = PicturePlace(width: trim.width, height: trim.height)

        character = nil
        if let main = book.characters?.main, main.image == nil {
            character = IllustrationJob(kind: .character, key: "character", scene: main.description ?? main.name,
                                        aspect: AspectRatio(width: 3, height: 4), label: "main character \(main.name)", place: trimPlace)
        }
        var cover: IllustrationJob?
        if book.kind == .storybook, book.cover?.photo == nil {
            cover = IllustrationJob(kind: .cover, key: "cover", scene: book.cover?.subtitle ?? book.subtitle ?? "", aspect: page, label: "cover", place: trimPlace)
        }
        var pages: [IllustrationJob] = []
        let firstIndex = book.pages.firstIndex { $0.picture?.generation != nil }
        firstPageIndex = firstIndex
        for (i, p) in book.pages.enumerated() {
            guard let picture = p.picture, picture.image == nil, let generation = picture.generation, !generation.scene.isEmpty else { continue }
            pages.append(IllustrationJob(kind: .page, key: p.id ?? "page-\(i + 1)", pageIndex: i, scene: generation.scene,
                                         aspect: AspectRatio(width: trim.width * Double(generation.pagesAcross), height: trim.height),
                                         label: "page \(i + 1) of \(book.pages.count)",
                                         place: PicturePlace(width: trim.width * Double(generation.pagesAcross), height: trim.height)))
        }
        let firstKey = pages.first { $0.pageIndex == firstIndex }?.key
        firstPageJob = firstKey
        first = (cover.map { [$0] } ?? []) + pages.filter { $0.key == firstKey }
        rest = pages.filter { $0.key != firstKey }

        if var budget = maxImages {
            func take(_ jobs: [IllustrationJob]) -> [IllustrationJob] {
                let kept = Array(jobs.prefix(max(0, budget)))
                skipped += jobs.dropFirst(kept.count)
                budget -= kept.count
                return kept
            }
            if let c = character { character = take([c]).first }
            first = take(first)
            rest = take(rest)
            if let f = firstPageJob, !first.contains(where: { $0.key == f }) { firstPageJob = nil }
        }
    }
}
