import Foundation

/// Reads and rewrites ICC profiles (version 2 and 4 tag layout) where finishing needs it: the
/// component count for an output intent, and a CMYK output profile whose colour-to-ink tables
/// never ask for more than a given total ink. Ghostscript has no total-ink setting of its own, but
/// it converts colours through whatever output profile it is given, so a limited profile limits
/// every colour it converts.
public enum ICCProfile {
    /// 1, 3 or 4, from the header's data colour space.
    public static func componentCount(_ data: Data, path: String = "profile") throws -> Int {
        guard data.count >= 132, String(decoding: data[data.startIndex + 36..<data.startIndex + 40], as: UTF8.self) == "acsp" else {
            throw FinishingError("\(path) is not an ICC profile")
        }
        switch String(decoding: data[data.startIndex + 16..<data.startIndex + 20], as: UTF8.self) {
        case "GRAY": return 1
        case "RGB ": return 3
        case "CMYK": return 4
        case let other: throw FinishingError("\(path): colour space \(other) cannot be an output intent")
        }
    }

    /// The highest total of C+M+Y+K (in percent) that the profile's colour-to-ink tables (BToA0…2)
    /// produce at any grid point, after their output curves.
    public static func maximumTotalInk(_ data: Data) throws -> Double {
        let profile = try Parsed(Array(data))
        var highest = 0.0
        for sig in ["B2A0", "B2A1", "B2A2"] {
            guard let index = profile.tagIndex(sig) else { continue }
            let lut = try Lut(profile.blocks[index], tag: sig)
            for point in 0..<lut.pointCount { highest = max(highest, lut.inks(at: point).reduce(0, +)) }
        }
        return highest * 100
    }

    /// A copy of a CMYK output profile whose BToA tables are limited to `totalInk` percent (e.g.
    /// 240): where a grid point asks for more, cyan, magenta and yellow shrink in proportion and
    /// black stays, so shadows keep their depth and neutrality as far as the limit lets them. The
    /// colour-measuring AToB tables are untouched: the profile still describes the same press.
    /// Deterministic: the same base profile and limit give the same bytes.
    public static func inkLimited(_ base: Data, totalInk: Double, description: String? = nil) throws -> Data {
        guard (100...400).contains(totalInk) else { throw FinishingError("total ink limit \(totalInk) % is outside 100…400 %") }
        guard try componentCount(base) == 4 else { throw FinishingError("ink limiting needs a CMYK profile") }
        var profile = try Parsed(Array(base))
        guard profile.bytes[12..<16] == Array("prtr".utf8)[...] else { throw FinishingError("ink limiting needs an output (prtr) profile") }
        var limited: Set<Int> = []
        for sig in ["B2A0", "B2A1", "B2A2"] {
            guard let index = profile.tagIndex(sig), !limited.contains(index) else { continue }
            var lut = try Lut(profile.blocks[index], tag: sig)
            lut.limit(totalInk / 100)
            profile.blocks[index] = lut.bytes
            limited.insert(index)
        }
        guard !limited.isEmpty else { throw FinishingError("the profile has no BToA table to limit") }
        if let description, let index = profile.tagIndex("desc") {
            profile.blocks[index] = textDescription(description)
        }
        return Data(profile.serialized())
    }

    /// ICC v2 `textDescriptionType` with ASCII only (the Unicode and ScriptCode parts left empty).
    private static func textDescription(_ text: String) -> [UInt8] {
        let ascii = Array(text.unicodeScalars.map { $0.isASCII ? UInt8($0.value) : UInt8(ascii: "?") }) + [0]
        var out = Array("desc".utf8) + [0, 0, 0, 0]
        out += be32(ascii.count) + ascii
        out += [0, 0, 0, 0] + [0, 0, 0, 0]        // Unicode language code and count
        out += [0, 0] + [0] + [UInt8](repeating: 0, count: 67)  // ScriptCode code, count, fixed 67 bytes
        return out
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// The header, the tag table and each distinct tag data block; tags that share data keep sharing it.
    private struct Parsed {
        var bytes: [UInt8]
        var tags: [(signature: [UInt8], block: Int)] = []
        var blocks: [[UInt8]] = []

        init(_ bytes: [UInt8]) throws {
            self.bytes = bytes
            guard bytes.count >= 132 else { throw FinishingError("the ICC profile is truncated") }
            let count = Int(u32(bytes, 128))
            guard count < 1000, 132 + count * 12 <= bytes.count else { throw FinishingError("the ICC profile's tag table is damaged") }
            var blockByOffset: [Int: Int] = [:]
            for i in 0..<count {
                let at = 132 + i * 12
                let offset = Int(u32(bytes, at + 4)), size = Int(u32(bytes, at + 8))
                guard offset + size <= bytes.count, offset >= 132 else { throw FinishingError("the ICC profile's tag table is damaged") }
                let block: Int
                if let known = blockByOffset[offset] {
                    block = known
                } else {
                    block = blocks.count
                    blockByOffset[offset] = block
                    blocks.append(Array(bytes[offset..<offset + size]))
                }
                tags.append((Array(bytes[at..<at + 4]), block))
            }
        }

        func tagIndex(_ signature: String) -> Int? {
            tags.first { $0.signature == Array(signature.utf8) }?.block
        }

        func serialized() -> [UInt8] {
            var header = Array(bytes[0..<128])
            var table: [UInt8] = be32(tags.count)
            var data: [UInt8] = []
            let dataStart = 128 + 4 + tags.count * 12
            var offsets: [Int] = []
            for block in blocks {
                while (dataStart + data.count) % 4 != 0 { data.append(0) }
                offsets.append(dataStart + data.count)
                data += block
            }
            for tag in tags {
                table += tag.signature + be32(offsets[tag.block]) + be32(blocks[tag.block].count)
            }
            var out = header + table + data
            while out.count % 4 != 0 { out.append(0) }
            header.replaceSubrange(0..<4, with: be32(out.count))
            // The profile ID is an MD5 of the old bytes; zero means "not computed", which is allowed.
            header.replaceSubrange(84..<100, with: [UInt8](repeating: 0, count: 16))
            out.replaceSubrange(0..<128, with: header)
            return out
        }
    }

    /// An 8-bit (`mft1`) or 16-bit (`mft2`) lookup table from a colour space to CMYK.
    private struct Lut {
        var bytes: [UInt8]
        let wide: Bool
        let inputs: Int, outputs: Int, grid: Int
        let inputEntries: Int, outputEntries: Int
        let clutStart: Int, outputStart: Int

        init(_ bytes: [UInt8], tag: String) throws {
            self.bytes = bytes
            let type = String(decoding: bytes.prefix(4), as: UTF8.self)
            guard type == "mft1" || type == "mft2", bytes.count >= 52 else {
                throw FinishingError("\(tag) is a \(type) table; only lut8/lut16 tables can be ink-limited")
            }
            wide = type == "mft2"
            inputs = Int(bytes[8]); outputs = Int(bytes[9]); grid = Int(bytes[10])
            guard outputs == 4, inputs >= 1, grid >= 2 else { throw FinishingError("\(tag) does not produce CMYK") }
            if wide {
                inputEntries = Int(bytes[48]) << 8 | Int(bytes[49])
                outputEntries = Int(bytes[50]) << 8 | Int(bytes[51])
                clutStart = 52 + inputs * inputEntries * 2
            } else {
                inputEntries = 256; outputEntries = 256
                clutStart = 48 + inputs * 256
            }
            var points = 1
            for _ in 0..<inputs { points *= grid }
            outputStart = clutStart + points * outputs * (wide ? 2 : 1)
            guard inputEntries >= 2, outputEntries >= 2,
                  outputStart + outputs * outputEntries * (wide ? 2 : 1) <= bytes.count else {
                throw FinishingError("\(tag) is truncated")
            }
        }

        var pointCount: Int { (outputStart - clutStart) / (outputs * (wide ? 2 : 1)) }
        private var maxValue: Double { wide ? 65535 : 255 }

        private func clut(_ point: Int, _ channel: Int) -> Int {
            let i = point * outputs + channel
            return wide ? Int(bytes[clutStart + 2 * i]) << 8 | Int(bytes[clutStart + 2 * i + 1]) : Int(bytes[clutStart + i])
        }

        private mutating func setClut(_ point: Int, _ channel: Int, _ value: Int) {
            let i = point * outputs + channel
            if wide {
                bytes[clutStart + 2 * i] = UInt8(value >> 8); bytes[clutStart + 2 * i + 1] = UInt8(value & 0xFF)
            } else {
                bytes[clutStart + i] = UInt8(value)
            }
        }

        private func outputEntry(_ channel: Int, _ index: Int) -> Double {
            let i = channel * outputEntries + index
            let raw = wide ? Int(bytes[outputStart + 2 * i]) << 8 | Int(bytes[outputStart + 2 * i + 1]) : Int(bytes[outputStart + i])
            return Double(raw) / maxValue
        }

        /// The output curve of `channel` at a CLUT value, interpolated as a CMM does (0…1).
        private func curve(_ channel: Int, _ clutValue: Int) -> Double {
            let x = Double(clutValue) / maxValue * Double(outputEntries - 1)
            let lo = min(Int(x), outputEntries - 2)
            let t = x - Double(lo)
            return outputEntry(channel, lo) * (1 - t) + outputEntry(channel, lo + 1) * t
        }

        /// The ink (0…1 per channel) a grid point ends up asking for.
        func inks(at point: Int) -> [Double] { (0..<outputs).map { curve($0, clut(point, $0)) } }

        mutating func limit(_ total: Double) {
            for point in 0..<pointCount {
                let ink = inks(at: point)
                let sum = ink.reduce(0, +)
                guard sum > total else { continue }
                let cmy = ink[0] + ink[1] + ink[2]
                let ratio = cmy > 0 ? max(0, (total - ink[3]) / cmy) : 0
                for channel in 0..<3 {
                    let target = ink[channel] * ratio
                    // The largest CLUT value whose curve stays at or under the target. The binary
                    // search assumes a rising curve (press curves rise); the walk down makes sure.
                    var lo = 0, hi = clut(point, channel)
                    if curve(channel, hi) <= target { continue }
                    while lo < hi {
                        let mid = (lo + hi + 1) / 2
                        if curve(channel, mid) <= target { lo = mid } else { hi = mid - 1 }
                    }
                    while lo > 0 && curve(channel, lo) > target { lo -= 1 }
                    setClut(point, channel, lo)
                }
            }
        }
    }

    private static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}
