import Foundation

/// What an e-book needs to know of a font file before it embeds it: may it be embedded (the OS/2
/// table's `fsType`), and where a browser puts its baseline (the ascent and descent Blink and
/// WebKit take: `hhea`'s, or OS/2's typographic ones when the font asks for them).
struct FontFileFacts {
    /// Ascent and descent as fractions of the em, both positive downwards from the top and below
    /// the baseline.
    var ascent: Double
    var descent: Double
    /// The licence bits forbid embedding (restricted licence, or bitmaps only).
    var embeddingForbidden: Bool
    /// A collection of fonts (.ttc), which an EPUB cannot carry.
    var isCollection: Bool
    /// OpenType with CFF outlines ("OTTO") rather than TrueType's.
    var isCFF: Bool

    /// When a face's metrics cannot be read: what most book faces have.
    static let typical = FontFileFacts(ascent: 0.9, descent: 0.25, embeddingForbidden: false, isCollection: false, isCFF: false)

    /// Reads the tables of the file at `path` (the first face of a collection); nil when it is not
    /// an OpenType or TrueType file.
    static func read(_ path: String) -> FontFileFacts? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // The tables sit in the first few hundred bytes' directory; their contents may be anywhere.
        func bytes(_ offset: Int, _ count: Int) -> [UInt8]? {
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
                  let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        }
        func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func s16(_ b: [UInt8], _ i: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(b, i)))) }
        func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) << 16 | u16(b, i + 2) }

        guard let head = bytes(0, 12) else { return nil }
        var start = 0
        let tag = String(decoding: head[0..<4], as: UTF8.self)
        let isCollection = tag == "ttcf"
        if isCollection {
            guard let first = bytes(12, 4) else { return nil }
            start = u32(first, 0)
        }
        guard let offsetTable = bytes(start, 12) else { return nil }
        let version = String(decoding: offsetTable[0..<4], as: UTF8.self)
        guard version == "OTTO" || version == "true" || u32(offsetTable, 0) == 0x0001_0000 else { return nil }
        let count = u16(offsetTable, 4)
        guard count > 0, count < 200, let records = bytes(start + 12, 16 * count) else { return nil }
        var tables: [String: (offset: Int, length: Int)] = [:]
        for i in 0..<count {
            let r = i * 16
            tables[String(decoding: records[r..<r + 4], as: UTF8.self)] = (u32(records, r + 8), u32(records, r + 12))
        }
        guard let headTable = tables["head"], let h = bytes(headTable.offset, 54) else { return nil }
        let unitsPerEm = Double(u16(h, 18))
        guard unitsPerEm > 0 else { return nil }
        var ascent = 0.0, descent = 0.0
        if let hhea = tables["hhea"], let b = bytes(hhea.offset, 8) {
            ascent = Double(s16(b, 4)); descent = Double(-s16(b, 6))
        }
        var forbidden = false
        if let os2 = tables["OS/2"], os2.length >= 78, let b = bytes(os2.offset, 78) {
            let fsType = u16(b, 8)
            // Bit 1: restricted licence embedding; bit 9: bitmap embedding only.
            forbidden = fsType & 0x0002 != 0 || fsType & 0x0200 != 0
            let useTypoMetrics = u16(b, 62) & 0x0080 != 0
            if useTypoMetrics || (ascent == 0 && descent == 0) {
                ascent = Double(s16(b, 68)); descent = Double(-s16(b, 70))
            }
        }
        if ascent == 0 && descent == 0 { return FontFileFacts(ascent: typical.ascent, descent: typical.descent,
                                                              embeddingForbidden: forbidden, isCollection: isCollection, isCFF: version == "OTTO") }
        return FontFileFacts(ascent: ascent / unitsPerEm, descent: descent / unitsPerEm, embeddingForbidden: forbidden,
                             isCollection: isCollection, isCFF: version == "OTTO")
    }
}
