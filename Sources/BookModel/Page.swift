import Foundation

/// One entry of `pages`: its type's content, and what every page has. The type picks the template;
/// a text page may become many physical pages and a spread always becomes two facing ones.
public struct Page: Sendable, Equatable {
    /// Stable id (kept from the source app when it has one), used in reports and by the generation step.
    public var id: String?
    public var content: PageContent
    /// Fields of other page types that the file gives this page, as written. This type never reads
    /// them (the loader warns: likely meant for another type); writing the book back keeps them.
    public internal(set) var unreadFields: [String: JSONValue] = [:]

    public init(id: String? = nil, _ content: PageContent) {
        self.id = id; self.content = content
    }

    public init(id: String? = nil, _ payload: some PagePayload) {
        self.init(id: id, payload.content)
    }

    public var type: PageType { content.type }

    /// The page's picture when its type shows one. Setting a value replaces the content with it;
    /// setting nil changes nothing.
    public var picture: (any PicturePage)? {
        get { content.payload as? any PicturePage }
        set { if let newValue { content = newValue.content } }
    }
}

/// What a page holds, by type. A new type is a case here, in `PageType` and in `PageVisitor`, with its
/// payload under Pages/; the compiler then points at every place that must handle it.
public enum PageContent: Sendable, Equatable {
    case illustration(IllustrationPage)
    case text(TextPage)
    case photo(PhotoPage)
    case chapter(ChapterPage)
    case spread(SpreadPage)
    case qr(QRPage)

    public var payload: any PagePayload {
        switch self {
        case .illustration(let p): p
        case .text(let p): p
        case .photo(let p): p
        case .chapter(let p): p
        case .spread(let p): p
        case .qr(let p): p
        }
    }

    public var type: PageType { Swift.type(of: payload).type }

    public func accept<V: PageVisitor>(_ visitor: V) -> V.Result {
        switch self {
        case .illustration(let p): visitor.visit(p)
        case .text(let p): visitor.visit(p)
        case .photo(let p): visitor.visit(p)
        case .chapter(let p): visitor.visit(p)
        case .spread(let p): visitor.visit(p)
        case .qr(let p): visitor.visit(p)
        }
    }
}

/// The `type` of a page in book.json.
public enum PageType: String, Codable, Sendable, CaseIterable {
    case illustration
    case text
    case photo
    case chapter
    case spread
    case qr

    /// What a page of this type holds.
    public var payloadType: any PagePayload.Type {
        switch self {
        case .illustration: IllustrationPage.self
        case .text: TextPage.self
        case .photo: PhotoPage.self
        case .chapter: ChapterPage.self
        case .spread: SpreadPage.self
        case .qr: QRPage.self
        }
    }
}

/// Something done with a page that differs by type, one method per type: code in another module
/// that must handle every page type (the layout's templates) conforms, and a new type it does not
/// handle yet is a compile error there rather than a page silently skipped.
public protocol PageVisitor {
    associatedtype Result
    func visit(_ page: IllustrationPage) -> Result
    func visit(_ page: TextPage) -> Result
    func visit(_ page: PhotoPage) -> Result
    func visit(_ page: ChapterPage) -> Result
    func visit(_ page: SpreadPage) -> Result
    func visit(_ page: QRPage) -> Result
}
