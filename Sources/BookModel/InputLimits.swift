/// How large a book's inputs may be. Past these, memory and time grow beyond what a print book
/// needs (Pango holds a paragraph's layout whole, a PNG is decoded whole), so such an input is
/// refused, with its place, before anything is allocated for it. Each can be
/// raised (`--max-image-pixels`, `--max-text-length`, `--max-book-text-length`, `--max-word-length`).
public struct InputLimits: Sendable, Equatable, Codable {
    /// Pixels (width × height, from the file's header) of one picture.
    public var maxImagePixels: Int
    /// Characters (Unicode scalars) of one text field.
    public var maxTextLength: Int
    /// Characters of all the book's text together.
    public var maxBookTextLength: Int
    /// Characters in a row with no place to break a line (see `TextCheck.longestUnbreakableRun`):
    /// Pango sets such a run by breaking it anywhere and shaping the rest again for every line, so
    /// its time grows with the square of the run's length, while no real word or address is long.
    public var maxWordLength: Int

    public static let defaultMaxImagePixels = 100_000_000
    public static let defaultMaxTextLength = 1_000_000
    public static let defaultMaxBookTextLength = 10_000_000
    public static let defaultMaxWordLength = 1_000

    public init(maxImagePixels: Int = defaultMaxImagePixels, maxTextLength: Int = defaultMaxTextLength,
                maxBookTextLength: Int = defaultMaxBookTextLength, maxWordLength: Int = defaultMaxWordLength) {
        self.maxImagePixels = maxImagePixels; self.maxTextLength = maxTextLength; self.maxBookTextLength = maxBookTextLength
        self.maxWordLength = maxWordLength
    }

    /// "1,000,000".
    public static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }
}
