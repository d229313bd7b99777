import Foundation
import CGraphics

/// Which writing systems a font file draws, from fontconfig's own reading of its character map.
public enum FontCoverage {
    /// A script and a letter every font that writes it has.
    public static let probes: [(script: String, character: UInt32)] = [
        ("Latin", 0x0041), ("Latin Extended", 0x0151), ("Greek", 0x03B1), ("Cyrillic", 0x0416), ("Hebrew", 0x05D0),
        ("Arabic", 0x0639), ("Devanagari", 0x0915), ("Thai", 0x0E01), ("Han", 0x4E2D), ("Kana", 0x3042),
        ("Hangul", 0xD55C), ("Emoji", 0x1F600),
    ]

    public struct Face: Sendable, Equatable {
        public var scripts: [String]
        /// Characters the face has a glyph for.
        public var characters: Int
    }

    /// The face of `file` named `family` (a collection holds several; else its first), nil when
    /// fontconfig cannot read the file.
    public static func face(file: String, family: String) -> Face? {
        guard let set = FcFontSetCreate() else { return nil }
        defer { FcFontSetDestroy(set) }
        guard FcFileScan(set, nil, nil, nil, file, FcFalse) == FcTrue, set.pointee.nfont > 0 else { return nil }
        let patterns = (0..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0] }
        let chosen = patterns.first { pattern in
            var name: UnsafeMutablePointer<FcChar8>?
            var i: Int32 = 0
            while FcPatternGetString(pattern, FC_FAMILY, i, &name) == FcResultMatch {
                if let name, String(cString: name) == family { return true }
                i += 1
            }
            return false
        } ?? patterns.first
        var charset: OpaquePointer?
        guard let chosen, FcPatternGetCharSet(chosen, FC_CHARSET, 0, &charset) == FcResultMatch, let charset else { return nil }
        return Face(scripts: probes.filter { FcCharSetHasChar(charset, $0.character) == FcTrue }.map(\.script),
                    characters: Int(FcCharSetCount(charset)))
    }
}
