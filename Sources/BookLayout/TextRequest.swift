import Foundation

/// One call of `Typesetter.layout`: equal requests give equal layouts. Texts are compared and
/// hashed by their UTF-8 bytes: a chapter's text is a key several times over while it is laid out
/// ahead, and String's own hashing normalizes every non-ASCII text first. Two texts that differ
/// only in how an accent is encoded are laid out apart, as they are set apart.
struct TextRequest: Hashable {
    var text: String
    var style: TextStyle
    var width: Double
    var alignment: TextAlignment
    var hyphenate: Bool
    var lineBreaking: LineBreaking = .optimal

    static func == (a: TextRequest, b: TextRequest) -> Bool {
        a.style == b.style && a.width == b.width && a.alignment == b.alignment && a.hyphenate == b.hyphenate
            && a.lineBreaking == b.lineBreaking && sameBytes(a.text, b.text)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(style)
        hasher.combine(width)
        hasher.combine(alignment)
        hasher.combine(hyphenate)
        hasher.combine(lineBreaking)
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
    }
}
