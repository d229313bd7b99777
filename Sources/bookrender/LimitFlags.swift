import ArgumentParser
import BookRenderKit

/// How large a book's pictures and texts may be (`InputLimits`), for the commands that read a book.
struct LimitFlags: ParsableArguments {
    @Option(name: .long, help: "Largest picture, in pixels (width × height, read from its header).")
    var maxImagePixels: Int = InputLimits.defaultMaxImagePixels

    @Option(name: .long, help: "Longest text of one field, in characters.")
    var maxTextLength: Int = InputLimits.defaultMaxTextLength

    @Option(name: .long, help: "Most text in the whole book, in characters.")
    var maxBookTextLength: Int = InputLimits.defaultMaxBookTextLength

    @Option(name: .long, help: "Longest run of characters with no place to break a line (a word, an address).")
    var maxWordLength: Int = InputLimits.defaultMaxWordLength

    func validate() throws {
        guard maxImagePixels >= 1 else { throw ValidationError("--max-image-pixels must be at least 1") }
        guard maxTextLength >= 1 else { throw ValidationError("--max-text-length must be at least 1") }
        guard maxBookTextLength >= 1 else { throw ValidationError("--max-book-text-length must be at least 1") }
        guard maxWordLength >= 1 else { throw ValidationError("--max-word-length must be at least 1") }
    }

    var limits: InputLimits {
        InputLimits(maxImagePixels: maxImagePixels, maxTextLength: maxTextLength, maxBookTextLength: maxBookTextLength,
                    maxWordLength: maxWordLength)
    }
}
