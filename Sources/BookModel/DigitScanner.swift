/// Reads ASCII digits and punctuation off the front of a string: the date forms books and PDFs
/// carry (`2024-05-01T12:00:00Z`, `D:20240501120000Z`).
public struct DigitScanner {
    private let bytes: [UInt8]
    private var i = 0

    public init(_ text: String) { bytes = Array(text.utf8) }

    public var atEnd: Bool { i == bytes.count }

    /// Exactly `count` digits as a number, or nil (and nothing read).
    public mutating func number(_ count: Int) -> Int? {
        guard i + count <= bytes.count else { return nil }
        var value = 0
        for b in bytes[i..<(i + count)] {
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + Int(b - 0x30)
        }
        i += count
        return value
    }

    /// Every digit in a row, read.
    public mutating func digits() -> Substring {
        let start = i
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        return Substring(decoding: bytes[start..<i], as: UTF8.self)
    }

    public mutating func take(_ c: Character) -> Bool {
        guard i < bytes.count, bytes[i] == c.asciiValue! else { return false }
        i += 1
        return true
    }
}
