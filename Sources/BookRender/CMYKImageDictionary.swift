/// cairo 1.16 writes a CMYK JPEG's image dictionary without `/Decode [1 0 1 0 1 0 1 0]`, which a
/// JPEG with Adobe's marker needs (Adobe stores CMYK inverted, and PDF readers take the values as
/// stored), and with `/Interpolate`, which PDF/X forbids. This writes the dictionary again at the
/// same length, its entries on one line instead of cairo's indented lines, so every offset cairo
/// counts (the cross-reference table) stays true and the picture's bytes need no second writing.
enum CMYKImageDictionary {
    private static let opening = Array("<< /Length ".utf8)
    private static let closing = Array(">>\nstream\n".utf8)
    static let decode = "/Decode [1 0 1 0 1 0 1 0]"

    /// The last bytes of `written`, a stream's dictionary and `stream` keyword as cairo wrote them
    /// for a CMYK JPEG, with the dictionary completed; nil when `written` does not end so, the
    /// dictionary has a /Decode already, or the result would not fit.
    static func completed(endingWith written: [UInt8]) -> [UInt8]? {
        guard written.count >= closing.count, Array(written.suffix(closing.count)) == closing,
              let start = lastRange(of: opening, in: written) else { return nil }
        let body = String(decoding: written[(start + 2)..<(written.count - closing.count)], as: UTF8.self)
        let entries = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard entries.contains("/Subtype /Image"), entries.contains("/ColorSpace /DeviceCMYK"),
              entries.contains("/Filter /DCTDecode"), !entries.contains(where: { $0.hasPrefix("/Decode") }),
              entries.allSatisfy({ $0.hasPrefix("/") }) else { return nil }
        let kept = entries.filter { !$0.hasPrefix("/Interpolate") }
        let line = Array(("<< " + (kept + [decode]).joined(separator: " ")).utf8)
        let length = written.count - start
        guard line.count + 1 + closing.count <= length else { return nil }
        return line + [UInt8](repeating: UInt8(ascii: " "), count: length - line.count - closing.count) + closing
    }

    private static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var i = bytes.count - needle.count
        while i >= 0 {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }
}
