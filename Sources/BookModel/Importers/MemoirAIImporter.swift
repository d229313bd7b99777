import Foundation

/// MemoirAI's `PersistableStorybook` → a memoir.
///
/// A memory's text arrives cut into the app's screen pages (`textPage` 1…total); it becomes one text
/// page again, because the print page is a different size and bookrender paginates it anew.
enum MemoirAIImporter: AppImporter {
    static let appName = "MemoirAI"
    static let formatName = "MemoirAI storybook"
    static let signature = ["pageItems", "profileID"]

    static let fallbackTitle = "My Story"

    static func book(from data: Data) throws -> ImportedBook {
        let story = try JSONDecoder().decode(PersistableStorybook.self, from: data)
        var warnings: [PathIssue] = []
        let root = PathBuilder()
        let itemsPath = root.key("pageItems")
        guard !story.pageItems.isEmpty else {
            throw ImportFailure(path: itemsPath, message: "the storybook has no pages; there is nothing to print")
        }

        var pages: [Page] = []
        var memory = MemoryText()
        func finishMemory() {
            if let page = memory.finish(warnings: &warnings) { pages.append(page) }
        }
        for (i, item) in story.pageItems.enumerated() {
            let path = itemsPath.index(i)
            switch item {
            case .textPage(let index, let total, let body):
                if !memory.continues(index: index, total: total) { finishMemory() }
                memory.add(index: index, total: total, body: body, at: path, warnings: &warnings)
                if index == total { finishMemory() }
            case .illustration(let imageData, let caption):
                finishMemory()
                guard let image = imageData.nonEmpty else {
                    warnings.append(PathIssue(path: path.key("illustration").key("imageData"), message: "an illustration without image data; skipped"))
                    continue
                }
                pages.append(Page(PhotoPage(image: .inline(image), caption: caption.nonBlank)))
            case .qrCode(let id, let url):
                finishMemory()
                guard BookValidator.isURL(url) else {
                    warnings.append(PathIssue(path: path.key("qrCode").key("url"), message: "\"\(url)\" is not a URL; the QR page is skipped"))
                    continue
                }
                pages.append(Page(id: id.uuidString, QRPage(url: url)))
            case .unknown(let name):
                finishMemory()
                warnings.append(PathIssue(path: path.key(name),
                    message: "\"\(name)\" is not a page item this bookrender knows (illustration, textPage, qrCode); skipped"))
            }
        }
        finishMemory()

        let cover = story.cover
        let title = cover?.title.nonBlank ?? fallbackTitle
        var accent = cover?.accentHex.trimmingCharacters(in: .whitespaces)
        if let a = accent, !a.hasPrefix("#"), BookValidator.isHexColour("#" + a) { accent = "#" + a }
        if let a = accent, !BookValidator.isHexColour(a) {
            warnings.append(PathIssue(path: root.key("cover").key("accentHex"),
                message: "\"\(a)\" is not a #RRGGBB colour; the theme's accent is used"))
            accent = nil
        }
        let coverValue = cover.map {
            Cover(title: title, subtitle: $0.subtitle.nonBlank, accent: accent, photo: $0.coverPhotoData?.nonEmpty.map(ImageRef.inline))
        }
        let book = Book(kind: .memoir, title: title, subtitle: cover?.subtitle.nonBlank, artStyle: story.artStyle.nonBlank,
                        created: BookDate.format(story.createdAt), theme: "memoir", cover: coverValue, pages: pages)
        return ImportedBook(book: book, warnings: warnings)
    }
}

/// The text pages of one memory, gathered until the last of them.
private struct MemoryText {
    private var bodies: [String] = []
    private var next = 1
    private var total = 0
    private var start: PathBuilder?

    /// Whether a text page is the next one of the memory being gathered (true when none is).
    func continues(index: Int, total: Int) -> Bool {
        start == nil || (index == next && total == self.total)
    }

    mutating func add(index: Int, total: Int, body: String, at path: PathBuilder, warnings: inout [PathIssue]) {
        if start == nil {
            start = path
            self.total = total
            if index != 1 {
                warnings.append(PathIssue(path: path, message: "this memory's text starts at page \(index) of \(total); the earlier pages are missing"))
            }
        }
        bodies.append(body)
        next = index + 1
    }

    /// The memory as one text page; nil when nothing was gathered or it was all blank.
    mutating func finish(warnings: inout [PathIssue]) -> Page? {
        guard let start else { return nil }
        defer { self = MemoryText() }
        if next - 1 < total {
            warnings.append(PathIssue(path: start, message: "this memory's text ends at page \(next - 1) of \(total); the later pages are missing"))
        }
        let text = bodies.compactMap { $0.nonBlank?.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: "\n\n")
        guard !text.isEmpty else {
            warnings.append(PathIssue(path: start, message: "this memory's text is empty; skipped"))
            return nil
        }
        return Page(TextPage(text: text))
    }
}

// MARK: the app's persisted shapes (read-only: only what bookrender uses is decoded)

private struct PersistableStorybook: Decodable {
    let profileID: UUID
    let pageItems: [PersistablePageItem]
    let artStyle: String
    let createdAt: Date
    let cover: CoverSettings?
}

private enum PersistablePageItem: Decodable {
    case illustration(imageData: Data, caption: String)
    case textPage(index: Int, total: Int, body: String)
    case qrCode(id: UUID, url: String)
    /// A case added by a later version of the app.
    case unknown(String)

    init(from decoder: any Decoder) throws {
        let c = try EnumCaseEnvelope(from: decoder, noun: "a page item", known: ["illustration", "textPage", "qrCode"])
        switch c.name {
        case "illustration":
            self = .illustration(imageData: try c.decode(Data.self, "imageData"), caption: try c.decode(String.self, "caption"))
        case "textPage":
            self = .textPage(index: try c.decode(Int.self, "index"), total: try c.decode(Int.self, "total"),
                             body: try c.decode(String.self, "body"))
        case "qrCode":
            self = .qrCode(id: try c.decode(UUID.self, "id"), url: try c.decode(String.self, "url"))
        default:
            self = .unknown(c.name)
        }
    }
}

private struct CoverSettings: Decodable {
    let title: String
    let subtitle: String
    let accentHex: String
    let coverPhotoData: Data?
}
