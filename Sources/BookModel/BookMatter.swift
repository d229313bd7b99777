/// The pages before and after the story that a printed book has: half-title, title page, the
/// copyright page behind it, dedication and contents at the front; "The End" and a page about the
/// author at the back. Each switch left out follows the theme (`templates.matter`); the texts are
/// the book's own.
public struct BookMatter: Codable, Sendable, Equatable {
    /// The title alone on the first right-hand page of a printed book, before the title page.
    public var halfTitle: Bool?
    /// The copyright page on the back of the title page.
    public var copyrightPage: Bool?
    /// The rights line; "Copyright © YEAR AUTHOR. All rights reserved." when absent.
    public var rights: String?
    public var edition: String?
    public var isbn: String?
    public var publisher: String?
    public var dedication: String?
    /// A contents page, for a book of three chapters or more.
    public var contents: Bool?
    /// A last page that says the story is over.
    public var theEnd: Bool?
    public var aboutTheAuthor: String?
    /// A portrait of the author, beside `aboutTheAuthor` on a printed cover's back.
    public var authorPhoto: ImageRef?
    /// The publisher's mark, at the foot of a printed cover's back (the barcode takes the other corner).
    public var publisherLogo: ImageRef?

    public init(halfTitle: Bool? = nil, copyrightPage: Bool? = nil, rights: String? = nil, edition: String? = nil,
                isbn: String? = nil, publisher: String? = nil, dedication: String? = nil, contents: Bool? = nil,
                theEnd: Bool? = nil, aboutTheAuthor: String? = nil, authorPhoto: ImageRef? = nil, publisherLogo: ImageRef? = nil) {
        self.halfTitle = halfTitle; self.copyrightPage = copyrightPage; self.rights = rights; self.edition = edition
        self.isbn = isbn; self.publisher = publisher; self.dedication = dedication; self.contents = contents
        self.theEnd = theEnd; self.aboutTheAuthor = aboutTheAuthor
        self.authorPhoto = authorPhoto; self.publisherLogo = publisherLogo
    }

    /// Whether the book gives anything a copyright page would print beyond the title and author.
    public var hasPublishingDetails: Bool {
        [rights, edition, isbn, publisher].contains { !($0 ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }
}
