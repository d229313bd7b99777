import BookModel

extension QuoteMarks {
    /// `book` with the quotes curled in everything a reader sees of it: titles, the author, the
    /// cover's words and every page's text and captions. Scenes and character descriptions are
    /// left alone: they are words for a picture-maker, not for the page.
    public func curled(_ book: Book) -> Book {
        var book = book
        book.title = curled(book.title)
        book.subtitle = book.subtitle.map(curled)
        book.author = book.author.map(curled)
        if var cover = book.cover {
            cover.title = cover.title.map(curled)
            cover.subtitle = cover.subtitle.map(curled)
            book.cover = cover
        }
        for i in book.pages.indices {
            book.pages[i].content = curled(book.pages[i].content)
        }
        return book
    }

    private func curled(_ content: PageContent) -> PageContent {
        switch content {
        case .text(var p):
            p.text = p.text.map(curled)
            return .text(p)
        case .chapter(var p):
            p.title = p.title.map(curled)
            p.subtitle = p.subtitle.map(curled)
            p.text = p.text.map(curled)
            return .chapter(p)
        case .illustration(var p):
            p.caption = p.caption.map(curled)
            p.text = p.text.map(curled)
            return .illustration(p)
        case .photo(var p):
            p.caption = p.caption.map(curled)
            return .photo(p)
        case .spread(var p):
            p.text = p.text.map(curled)
            p.leftText = p.leftText.map(curled)
            p.rightText = p.rightText.map(curled)
            return .spread(p)
        case .qr(var p):
            p.caption = p.caption.map(curled)
            return .qr(p)
        }
    }
}
