import BookConfig
import BookModel
import BookResolve

/// Fits the body to the page: when the theme states a measure (`typography.measure`) and the book
/// leaves its margins to the theme, the body size moves within the theme's limits and then the
/// side margins widen until a full line of body text holds about the characters the theme wants.
/// A book that sets its own margins, or its own body size, keeps them.
enum MeasureFit {
    /// Ordinary prose, to find how wide the body's average character is.
    static let sample = """
        When we moved to the farm that spring, my mother planted a row of beans along the fence and told \
        us that whatever came up first would be ours to keep. I was seven, and I believed her completely.
        """

    struct Outcome {
        /// About how many characters a full body line holds once fitted.
        var characters: Double?
        var findings: [Finding] = []
        /// What the side margins of the interior pages widen by (the cover keeps the theme's).
        var inner = 0.0
        var outer = 0.0
    }

    /// Sets the fitted body size into `book`; the margins it needs are the outcome's.
    /// Nothing is measured (no text shaped) for a book the theme does not fit.
    static func fit(_ book: inout ResolvedBook, typesetter: Typesetter) -> Outcome {
        let body = book.tokens.typography.body
        let column = book.trim.width - book.margins.inner - book.margins.outer
        let overrides = book.book.tokens
        let ownMargins = book.book.format?.margins != nil || overrides?["sizing"]?["margins"] != nil
        let ownSize = overrides?["typography"]?["body"]?["size"] != nil
        guard let measure = book.tokens.typography.measure, column > 0, !ownMargins else { return Outcome() }
        let perPoint = averageCharacterWidth(body, typesetter) / body.size
        guard perPoint > 0 else { return Outcome() }
        func characters(_ size: Double, _ width: Double) -> Double { width / (perPoint * size) }

        var size = body.size
        var count = characters(size, column)
        var widen = (inner: 0.0, outer: 0.0)
        if count > measure.max {
            if !ownSize { size = min(measure.maxBodySize, max(size, size * count / measure.ideal)) }
            count = characters(size, column)
            if count > measure.max {
                // The rest from the side margins, each widened in its own proportion.
                let extra = column - column * measure.ideal / count
                let sides = book.margins.inner + book.margins.outer
                let innerShare = sides > 0 ? book.margins.inner / sides : 0.5
                widen = (extra * innerShare, extra * (1 - innerShare))
                count = characters(size, column - extra)
            }
        } else if count < measure.min, !ownSize {
            size = max(measure.minBodySize, min(size, size * count / measure.ideal))
            count = characters(size, column)
        }
        book.tokens.typography.body.size = size
        var outcome = Outcome(characters: count, inner: widen.inner, outer: widen.outer)
        if count < measure.min || count > measure.max {
            outcome.findings.append(Finding(.warning, .other,
                "body lines hold about \(Int(count.rounded())) characters, outside the theme's \(Int(measure.min))–\(Int(measure.max)); " +
                "a \(count < measure.min ? "wider" : "narrower") text area or a \(count < measure.min ? "smaller" : "larger") body size reads better"))
        }
        return outcome
    }

    /// The body's average advance per character over the sample, in points.
    static func averageCharacterWidth(_ role: TypeRole, _ typesetter: Typesetter) -> Double {
        let style = TextStyle(family: role.family, size: role.size, weight: role.weight, italic: role.italic,
                              lineHeight: role.lineHeight)
        if let known = typesetter.averageCharacterWidths[style] { return known }
        let layout = typesetter.layout(sample, style: style, width: 0, alignment: .start, hyphenate: false)
        let width = layout.lines.reduce(0) { $0 + $1.width } / Double(sample.count)
        typesetter.averageCharacterWidths[style] = width
        return width
    }
}
