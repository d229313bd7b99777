/// The quotation marks a language sets, as the Unicode CLDR gives them, and the curling of
/// typewriter quotes (`"` and `'`) into them. Marks already curled are left as they are.
public struct QuoteMarks: Sendable, Equatable {
    public var open: Unicode.Scalar
    public var close: Unicode.Scalar
    /// For a quotation inside a quotation (a `'` pair).
    public var innerOpen: Unicode.Scalar
    public var innerClose: Unicode.Scalar
    /// Set between an outer mark and the words it encloses (French: a narrow no-break space), or nil.
    public var space: Unicode.Scalar?

    public init(open: Unicode.Scalar, close: Unicode.Scalar, innerOpen: Unicode.Scalar, innerClose: Unicode.Scalar, space: Unicode.Scalar? = nil) {
        self.open = open; self.close = close; self.innerOpen = innerOpen; self.innerClose = innerClose; self.space = space
    }

    public static let english = QuoteMarks(open: "“", close: "”", innerOpen: "‘", innerClose: "’")
    public static let german = QuoteMarks(open: "„", close: "“", innerOpen: "‚", innerClose: "‘")
    /// French sets its guillemets off by a narrow no-break space, so they never end up alone at a
    /// line's edge; quotations inside take English marks.
    public static let french = QuoteMarks(open: "«", close: "»", innerOpen: "“", innerClose: "”", space: "\u{202F}")
    static let guillemets = QuoteMarks(open: "«", close: "»", innerOpen: "“", innerClose: "”")

    /// By BCP 47 tag ("fr-FR", "de_CH"): the region's marks when they differ from the language's,
    /// else the language's; English for a language not listed.
    public init(language: String) {
        let parts = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let base = parts.first ?? ""
        if let regional = parts.dropFirst().lazy.compactMap({ Self.regional[base + "-" + $0] }).first {
            self = regional
        } else {
            self = Self.byLanguage[base] ?? .english
        }
    }

    private static let byLanguage: [String: QuoteMarks] = [
        "en": .english, "de": .german, "fr": .french,
        "es": .guillemets, "it": .guillemets, "ca": .guillemets, "el": .guillemets,
        "pt": .english, "nl": .english, "da": .english, "tr": .english, "zh": .english, "ko": .english,
        "ru": QuoteMarks(open: "«", close: "»", innerOpen: "„", innerClose: "“"),
        "uk": QuoteMarks(open: "«", close: "»", innerOpen: "„", innerClose: "“"),
        "pl": QuoteMarks(open: "„", close: "”", innerOpen: "«", innerClose: "»"),
        "cs": .german, "sk": .german, "sl": .german, "lt": .german, "is": .german,
        "hu": QuoteMarks(open: "„", close: "”", innerOpen: "»", innerClose: "«"),
        "ro": QuoteMarks(open: "„", close: "”", innerOpen: "«", innerClose: "»"),
        "sv": QuoteMarks(open: "”", close: "”", innerOpen: "’", innerClose: "’"),
        "fi": QuoteMarks(open: "”", close: "”", innerOpen: "’", innerClose: "’"),
        "nb": QuoteMarks(open: "«", close: "»", innerOpen: "‘", innerClose: "’"),
        "no": QuoteMarks(open: "«", close: "»", innerOpen: "‘", innerClose: "’"),
        "nn": QuoteMarks(open: "«", close: "»", innerOpen: "‘", innerClose: "’"),
        "ja": QuoteMarks(open: "「", close: "」", innerOpen: "『", innerClose: "』"),
    ]

    private static let regional: [String: QuoteMarks] = [
        "de-ch": QuoteMarks(open: "«", close: "»", innerOpen: "‹", innerClose: "›"),
        "de-li": QuoteMarks(open: "«", close: "»", innerOpen: "‹", innerClose: "›"),
        "fr-ch": QuoteMarks(open: "«", close: "»", innerOpen: "‹", innerClose: "›"),
        "pt-pt": .guillemets,
        "zh-hant": QuoteMarks(open: "「", close: "」", innerOpen: "『", innerClose: "』"),
        "zh-tw": QuoteMarks(open: "「", close: "」", innerOpen: "『", innerClose: "』"),
        "zh-hk": QuoteMarks(open: "「", close: "」", innerOpen: "『", innerClose: "』"),
    ]
}
