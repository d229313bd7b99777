import Foundation
import CGraphics

/// Dictionary hyphenation with libhyphen and the Debian pattern files in /usr/share/hyphen.
/// Pango has no dictionaries and only breaks at spaces or arbitrary letters, so allowed break
/// points are marked with U+00AD SOFT HYPHEN, which Pango may break at and then draws as "-".
///
/// One per Typesetter (or thread), each with its own word cache; they share the loaded patterns
/// (see `HyphenDictionary`).
public final class Hyphenator {
    public static let defaultDirectories = [URL(fileURLWithPath: "/usr/share/hyphen")]
    /// The dictionary file in use.
    public let dictionaryURL: URL
    /// Fewest letters before / after a break (the dictionary's own values, never below 2 / 3).
    public let leftMinimum: Int
    public let rightMinimum: Int
    /// Words with fewer letters are never hyphenated.
    public let minimumWordLength = 5

    private let dictionary: HyphenDictionary
    /// Words whose breaks are given, looked up before the patterns.
    public let exceptions: HyphenationExceptions?
    /// The loaded patterns, the same for every Hyphenator of the file.
    var dict: UnsafeMutablePointer<HyphenDict> { dictionary.pointer }
    private let isUTF8: Bool
    /// For 8-bit dictionaries (hyph_de_DE.dic is ISO8859-1): the byte of each character, or nil
    /// when the charset has none.
    private let charset: String
    private var byteOf: [Unicode.Scalar: UInt8?] = [:]

    /// Loads the dictionary for a BCP 47 tag ("en" → hyph_en_US.dic, "de-AT" → hyph_de_AT.dic);
    /// nil when none is installed, which the caller reports.
    public convenience init?(language: String, exceptions: HyphenationExceptions? = nil) {
        self.init(language: language, directories: Self.defaultDirectories, exceptions: exceptions)
    }

    public init?(language: String, directories: [URL], exceptions: HyphenationExceptions? = nil) {
        guard let url = Self.dictionaryURL(for: language, in: directories),
              let dictionary = HyphenDictionary.load(url) else { return nil }
        self.dictionary = dictionary
        self.exceptions = exceptions
        let dict = dictionary.pointer
        self.dictionaryURL = url
        self.isUTF8 = dict.pointee.utf8 != 0
        self.charset = withUnsafeBytes(of: dict.pointee.cset) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        self.leftMinimum = max(2, Int(dict.pointee.lhmin))
        self.rightMinimum = max(3, Int(dict.pointee.rhmin))
    }

    /// Loads the language's patterns on another thread, for the Hyphenators made later.
    public static func preload(language: String) {
        guard let url = dictionaryURL(for: language) else { return }
        Thread.detachNewThread { _ = HyphenDictionary.load(url) }
    }

    /// The dictionary file a language tag maps to, or nil.
    public static func dictionaryURL(for language: String, in directories: [URL] = defaultDirectories) -> URL? {
        let subtags = language.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        guard let lang = subtags.first?.lowercased(), !lang.isEmpty, lang.allSatisfy(\.isLetter) else { return nil }
        // A region is two letters or three digits; a four-letter script subtag ("Latn") is skipped.
        let region = subtags.dropFirst().first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }?.uppercased()
        let defaultRegion = ["en": "US", "de": "DE", "fr": "FR", "pt": "PT", "es": "ES", "nl": "NL", "sv": "SE",
                             "da": "DK", "nb": "NO", "nn": "NO", "cs": "CZ", "el": "GR", "uk": "UA"][lang] ?? lang.uppercased()
        var names: [String] = []
        if let region { names.append("hyph_\(lang)_\(region).dic") }
        names.append("hyph_\(lang)_\(defaultRegion).dic")
        names.append("hyph_\(lang).dic")
        let fm = FileManager.default
        for dir in directories {
            for name in names {
                let url = dir.appendingPathComponent(name)
                if fm.fileExists(atPath: url.path) { return url }
            }
            // Any regional variant beats none.
            if let other = (try? fm.contentsOfDirectory(atPath: dir.path))?
                .filter({ $0.hasPrefix("hyph_\(lang)_") && $0.hasSuffix(".dic") }).sorted().first {
                return dir.appendingPathComponent(other)
            }
        }
        return nil
    }

    /// `text` with U+00AD inserted at every allowed break of every eligible word; nothing else
    /// changes. Left alone: words under five letters, words with digits, URLs, e-mail addresses,
    /// code names (`file_name`, `os.path`: an added hyphen would read as part of the name) and
    /// anything that already carries a soft hyphen.
    public func hyphenate(_ text: String) -> String {
        // On the UTF-8 bytes, with a Character only where a non-ASCII byte starts or follows one
        // (where a grapheme may be longer than a byte): a walk of String indices and a cache keyed
        // by Substrings (hashed and compared through Unicode normalization) cost more than libhyphen.
        var storage = text
        storage.makeContiguousUTF8()
        let native = storage  // read for Characters while `storage` lends its bytes
        let out = storage.withUTF8 { bytes -> [UInt8] in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 8)
            var tokenStart: Int?
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                let whitespace: Bool
                var next = i + 1
                if byte < 0x80 && (next == bytes.count || bytes[next] < 0x80) {
                    whitespace = byte == 0x20 || (0x09...0x0D).contains(byte)
                } else {
                    let index = native.utf8.index(native.utf8.startIndex, offsetBy: i)
                    let character = native[index]
                    whitespace = character.isWhitespace
                    next = i + character.utf8.count
                }
                if whitespace {
                    if let start = tokenStart {
                        appendHyphenated(UnsafeBufferPointer(rebasing: bytes[start..<i]), to: &out)
                        tokenStart = nil
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<next]))
                } else if tokenStart == nil {
                    tokenStart = i
                }
                i = next
            }
            if let start = tokenStart { appendHyphenated(UnsafeBufferPointer(rebasing: bytes[start...]), to: &out) }
            return out
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Books repeat their words: each distinct token goes through libhyphen once.
    private var tokenCache = TokenCache()

    private func appendHyphenated(_ token: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if tokenCache.append(token, to: &out) { return }
        let result = hyphenateASCIIToken(token) ?? Array(hyphenateToken(Substring(String(decoding: token, as: UTF8.self))).utf8)
        result.withUnsafeBufferPointer { tokenCache.insert(token, $0) }
        out.append(contentsOf: result)
    }

    /// The break positions inside one word, as counts of Characters before each break
    /// ("hyphenation" → [2, 6]). The word must be letters only.
    public func breakPoints(in word: String) -> [Int] {
        let chars = Array(word)
        guard chars.count >= minimumWordLength, chars.allSatisfy(Self.isWordCharacter) else { return [] }
        return breaks(chars)
    }

    // MARK: - Words

    private func hyphenateToken(_ token: Substring) -> String {
        if token.unicodeScalars.contains(where: { $0 == "\u{00AD}" || $0.properties.numericType != nil }) { return String(token) }
        if Self.looksLikeAddress(token) || Self.looksLikeCodeName(token.utf8) { return String(token) }
        // Letter runs between punctuation: "well-known," → "well", "known"; "l’université" → "l", "université".
        var out = ""
        var run: [Character] = []
        func flush() {
            if run.count >= minimumWordLength {
                var cuts = Set(breaks(run))
                for (i, c) in run.enumerated() {
                    if cuts.remove(i) != nil { out.append("\u{00AD}") }
                    out.append(c)
                }
            } else {
                out.append(contentsOf: run)
            }
            run.removeAll(keepingCapacity: true)
        }
        for ch in token {
            if Self.isWordCharacter(ch) { run.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        return out
    }

    /// The same for a token of ASCII alone (most words of most books), on its bytes: a Character
    /// walk costs more than libhyphen itself. Nil for any other token.
    private func hyphenateASCIIToken(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var plain = true
        for b in bytes {
            if b >= 0x80 { return nil }
            // Digits, "@" and "/" (and so "://"): left alone.
            if (b >= 0x30 && b <= 0x39) || b == 0x40 || b == 0x2F { plain = false }
        }
        if !plain || Self.startsWithWWW(bytes) || Self.looksLikeCodeName(bytes) { return Array(bytes) }
        func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var lowered: [UInt8] = []
        var runStart = 0
        func flush(_ end: Int) {
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
            if run.count >= minimumWordLength {
                lowered.removeAll(keepingCapacity: true)
                for b in run { lowered.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b) }
                // Each unit is a character: the breaks come back as positions, in order.
                let cuts = listedBreaks(String(decoding: lowered, as: UTF8.self), characters: run.count)
                    ?? libhyphenBreaks(encoded: lowered, boundaryAfterUnit: nil, characters: run.count)
                var next = 0
                for (i, b) in run.enumerated() {
                    if next < cuts.count && cuts[next] == i { out.append(contentsOf: [0xC2, 0xAD]); next += 1 }
                    out.append(b)
                }
            } else {
                out.append(contentsOf: run)
            }
        }
        for (i, b) in bytes.enumerated() where !isLetter(b) {
            flush(i)
            out.append(b)
            runStart = i + 1
        }
        flush(bytes.count)
        return out
    }

    /// A word's breaks from the exceptions, within the minima before and after a break; nil when
    /// it is not listed.
    private func listedBreaks(_ lowercased: String, characters: Int) -> [Int]? {
        guard let listed = exceptions?.breaks(ofLowercased: lowercased) else { return nil }
        return listed.filter { $0 >= leftMinimum && characters - $0 >= rightMinimum }
    }

    /// A name from a program: an underscore anywhere, or a dot between two letters or digits
    /// (`os.path`, `setup.py`; not a sentence's full stop, nor "e.g.", whose dots end it).
    private static func looksLikeCodeName<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        func isAlphanumeric(_ b: UInt8) -> Bool { (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 }
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for b in bytes {
            if b == 0x5F { return true }
            if previous == 0x2E && isAlphanumeric(beforePrevious) && isAlphanumeric(b) && !isAbbreviation(bytes) { return true }
            beforePrevious = previous
            previous = b
        }
        return false
    }

    /// Single letters between dots ("e.g.", "U.S.A."): an abbreviation, hyphenated as a word would be.
    private static func isAbbreviation<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var letters = 0
        for b in bytes {
            if b == 0x2E { if letters > 1 { return false }; letters = 0 } else { letters += 1 }
        }
        return letters <= 1
    }

    /// "www." in front, in any case.
    private static func startsWithWWW(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        return bytes[0] | 0x20 == 0x77 && bytes[1] | 0x20 == 0x77 && bytes[2] | 0x20 == 0x77 && bytes[3] == 0x2E
    }

    /// URLs, e-mail addresses and paths: "://", "@" or "/" anywhere, or "www." in front (any case).
    private static func looksLikeAddress(_ token: Substring) -> Bool {
        let bytes = token.utf8
        if bytes.contains(where: { $0 == 0x40 || $0 == 0x2F }) { return true }  // "@", "/" (and so "://")
        let prefix = bytes.prefix(4).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return prefix == Array("www.".utf8)
    }

    private static func isWordCharacter(_ ch: Character) -> Bool {
        guard let first = ch.unicodeScalars.first else { return false }
        return first.properties.isAlphabetic && !first.properties.isIdeographic
    }

    /// Runs libhyphen on one letter run. Patterns are lowercase, so the word is lowercased (and
    /// composed) one Character at a time; a break is only taken where it falls between two
    /// Characters, so it can never land inside a UTF-8 sequence, a combining sequence, or a
    /// character whose lowercase form is longer.
    private func breaks(_ chars: [Character]) -> [Int] {
        if exceptions != nil, let listed = listedBreaks(String(chars).lowercased(), characters: chars.count) { return listed }
        var encoded: [UInt8] = []
        // boundaryAfterUnit[k] = Characters before a break after unit k (0 inside a Character),
        // where libhyphen's units are scalars of the lowercased word (UTF-8 dictionaries) or
        // bytes (8-bit dictionaries).
        var boundaryAfterUnit: [Int] = []
        boundaryAfterUnit.reserveCapacity(chars.count)
        for (i, ch) in chars.enumerated() {
            if let ascii = ch.asciiValue {
                encoded.append(ascii >= 0x41 && ascii <= 0x5A ? ascii + 0x20 : ascii)
                boundaryAfterUnit.append(i + 1)
                continue
            }
            let lowered = String(ch).lowercased().precomposedStringWithCanonicalMapping
            if isUTF8 {
                encoded.append(contentsOf: lowered.utf8)
            } else {
                for scalar in lowered.unicodeScalars {
                    guard let byte = eightBit(scalar) else { return [] }
                    encoded.append(byte)
                }
            }
            boundaryAfterUnit.append(contentsOf: repeatElement(0, count: lowered.unicodeScalars.count - 1))
            boundaryAfterUnit.append(i + 1)
        }
        return libhyphenBreaks(encoded: encoded, boundaryAfterUnit: boundaryAfterUnit, characters: chars.count)
    }

    /// libhyphen on the encoded, lowercased word; `boundaryAfterUnit[k]` is the number of
    /// Characters before a break after unit k (0 inside a Character), nil when each unit is one.
    private func libhyphenBreaks(encoded word: [UInt8], boundaryAfterUnit: [Int]?, characters: Int) -> [Int] {
        let units = boundaryAfterUnit?.count ?? characters
        let size = word.count
        guard size > 0, size < 250 else { return [] }
        // libhyphen looks for its NOHYPHEN strings (apostrophes and dashes by default) with strstr,
        // past `size`, and marks what it finds there in `hyphens`: the word must end in a NUL.
        let encoded = word + [0]
        var hyphens = [CChar](repeating: 0, count: size + 5)
        var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var pos: UnsafeMutablePointer<Int32>?
        var cut: UnsafeMutablePointer<Int32>?
        let status = encoded.withUnsafeBufferPointer { wordBuf in
            wordBuf.withMemoryRebound(to: CChar.self) { word in
                hnj_hyphen_hyphenate3(dict, word.baseAddress, Int32(size), &hyphens, nil, &rep, &pos, &cut,
                                      Int32(leftMinimum), Int32(rightMinimum), 2, 2)
            }
        }
        defer {
            if let rep {
                for k in 0..<size { free(rep[k]) }
                free(rep)
            }
            free(pos)
            free(cut)
        }
        guard status == 0 else { return [] }
        var result: [Int] = []
        for k in 0..<(units - 1) where hyphens[k] & 1 == 1 {
            // A non-standard break (German "Schiffahrt" → "Schiff-fahrt") changes the spelling,
            // which a soft hyphen cannot express.
            if let rep, rep[k] != nil { continue }
            let before = boundaryAfterUnit?[k] ?? k + 1
            guard before >= leftMinimum, characters - before >= rightMinimum else { continue }
            result.append(before)
        }
        return result
    }

    private func eightBit(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.value < 0x80 { return UInt8(scalar.value) }
        if let known = byteOf[scalar] { return known }
        let byte = Self.convert(scalar, to: charset)
        byteOf[scalar] = byte
        return byte
    }

    private static func convert(_ scalar: Unicode.Scalar, to charset: String) -> UInt8? {
        let upper = charset.uppercased()
        if upper == "ISO8859-1" || upper == "ISO-8859-1" || upper == "LATIN1" {
            return scalar.value < 0x100 ? UInt8(scalar.value) : nil
        }
        let cd = iconv_open(charset, "UTF-8")
        guard cd != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(cd) }
        var input = Array(String(scalar).utf8).map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: 8)
        var inLeft = input.count, outLeft = output.count
        let done = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                return iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
            }
        }
        guard done != -1, inLeft == 0, output.count - outLeft == 1 else { return nil }
        return UInt8(bitPattern: output[0])
    }
}
