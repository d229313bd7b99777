import Foundation

/// Providers echo bits of a request in errors: the key whole, its first and last characters around a
/// mask ("sk-proj-****abcd"), or the key inside base64 (a Basic credential, an echoed header block).
/// None of it may reach a message, the journal or a file.
public func redact(_ text: String, key: String) -> String {
    guard key.count >= 4 else { return text }
    var out = text
    for form in Redaction.encodings(of: key) where form.count >= 4 {
        out = out.replacingOccurrences(of: form, with: "[key]")
    }
    return Redaction.fragments(in: out, key: key)
}

public enum Redaction {
    /// Shorter than this, a piece of the key inside a longer word is taken for chance.
    static let shortestInnerPiece = 8
    /// The ends of a key are what servers show around a mask; this long, they are redacted too.
    static let shortestEnd = 4

    /// The key as text, percent-encoded, and the parts of its base64 forms that do not depend on the
    /// bytes around it (one per alignment of the key within the encoded data).
    public static func encodings(of key: String) -> [String] {
        var forms = [key]
        if let escaped = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics), escaped != key { forms.append(escaped) }
        let bytes = Array(key.utf8)
        for lead in 0..<3 {
            let padded = Data(Array(repeating: 0, count: lead) + bytes)
            for alphabet in [padded.base64EncodedString(), padded.base64EncodedString().base64URL] {
                let chars = Array(alphabet)
                // Characters made only of the key's bytes: after the group holding the lead bytes,
                // and before the last group, which mixes in whatever follows.
                let start = lead == 0 ? 0 : 4
                let end = (lead + bytes.count) / 3 * 4
                guard end - start >= shortestInnerPiece else { continue }
                forms.append(String(chars[start..<end]))
            }
        }
        // Longest first, so a shorter form never splits a longer one.
        return Array(Set(forms)).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// Words of the text (runs of the characters keys are made of) that are the key's start or end,
    /// or a long piece of it.
    static func fragments(in text: String, key: String) -> String {
        let keyChars = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        var out = ""
        var word = ""
        func flush() {
            let hidden = word.count >= shortestEnd && (key.hasPrefix(word) || key.hasSuffix(word))
                || word.count >= shortestInnerPiece && key.contains(word)
            out += hidden ? "[key]" : word
            word = ""
        }
        for scalar in text.unicodeScalars {
            if keyChars.contains(scalar) { word.unicodeScalars.append(scalar) } else { flush(); out.unicodeScalars.append(scalar) }
        }
        flush()
        return out
    }
}

private extension String {
    var base64URL: String { replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
}
