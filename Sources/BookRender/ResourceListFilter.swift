/// cairo 1.16 lists a page's (or a group's) XObject, pattern and shading resources once per use,
/// not once per object: a picture or a colour-emoji glyph drawn five times on a page is named five
/// times in the page's `/XObject` dictionary, which PDF forbids (a dictionary's keys are unique;
/// `qpdf --check` fails on it). cairo writes such a list as one write that opens it, the entries in a
/// few writes each (" /x", "12 ", "12 0 R") and one that closes it, so the sink holds back
/// each entry until it is whole and writes a repeat as spaces of the same length, which keeps every offset cairo counts (the cross-reference table,
/// stream lengths) true and the dictionary valid.
struct ResourceListFilter {
    /// The prefix of the entries of the list being written (" /x" for XObjects), nil outside one.
    private var entryPrefix: [UInt8]?
    private var seen = Set<[UInt8]>()
    /// The part of an entry written so far.
    private var pending: [UInt8] = []

    private static let openers: [([UInt8], [UInt8])] = [
        (Array("   /XObject <<".utf8), Array(" /x".utf8)),
        (Array("   /Pattern <<".utf8), Array(" /p".utf8)),
        (Array("   /Shading <<".utf8), Array(" /sh".utf8)),
    ]
    private static let entryEnd = Array(" 0 R".utf8)

    /// Whether `write` must go through `pass` (inside a list, or the write opening one).
    func wants(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        entryPrefix != nil || (bytes.count == 14 && Self.openers.contains { bytes.elementsEqual($0.0) })
    }

    /// Takes one write of cairo's; returns what to write now, in order: nothing while an entry is
    /// incomplete, an entry (or spaces for a repeat) once it is whole.
    mutating func pass(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let prefix = entryPrefix else {
            entryPrefix = Self.openers.first { bytes.elementsEqual($0.0) }?.1
            return Array(bytes)
        }
        pending += bytes
        if Self.isEntry(pending, prefix: prefix) {
            defer { pending.removeAll(keepingCapacity: true) }
            return seen.insert(pending).inserted ? pending : [UInt8](repeating: UInt8(ascii: " "), count: pending.count)
        }
        if Self.couldBecomeEntry(pending, prefix: prefix) { return [] }
        // The list has ended (" >>"), or cairo wrote something this does not know: passed on as it came.
        defer { finish() }
        return pending
    }

    /// What is held back, for the end of the file (a list cairo never closed).
    mutating func flush() -> [UInt8] {
        defer { finish() }
        return pending
    }

    private mutating func finish() {
        entryPrefix = nil
        pending = []
        seen.removeAll(keepingCapacity: true)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// " /x12 12 0 R": the prefix, digits, a space, digits, " 0 R".
    private static func isEntry(_ bytes: [UInt8], prefix: [UInt8]) -> Bool {
        guard bytes.count > prefix.count + entryEnd.count + 2, bytes.starts(with: prefix),
              bytes.suffix(entryEnd.count).elementsEqual(entryEnd) else { return false }
        let middle = bytes[prefix.count..<(bytes.count - entryEnd.count)]
        guard let space = middle.firstIndex(of: UInt8(ascii: " ")) else { return false }
        let first = middle[..<space], second = middle[(space + 1)...]
        return !first.isEmpty && !second.isEmpty && first.allSatisfy(isDigit) && second.allSatisfy(isDigit)
    }

    /// A beginning of " /x12 12 0 R" (and short, so nothing else is ever held back for long).
    private static func couldBecomeEntry(_ bytes: [UInt8], prefix: [UInt8]) -> Bool {
        guard bytes.count < 48 else { return false }
        if bytes.count <= prefix.count { return prefix.starts(with: bytes) }
        guard bytes.starts(with: prefix) else { return false }
        // digits, then optionally a space and digits, then optionally part of " 0 R".
        var rest = bytes[prefix.count...]
        let firstDigits = rest.prefix(while: isDigit)
        guard !firstDigits.isEmpty else { return false }
        rest = rest.dropFirst(firstDigits.count)
        guard let space = rest.first else { return true }
        guard space == UInt8(ascii: " ") else { return false }
        rest = rest.dropFirst()
        let secondDigits = rest.prefix(while: isDigit)
        rest = rest.dropFirst(secondDigits.count)
        if rest.isEmpty { return true }
        guard !secondDigits.isEmpty else { return false }
        return entryEnd.starts(with: rest)
    }
}
