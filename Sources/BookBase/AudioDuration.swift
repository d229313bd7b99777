import Foundation

/// How long a recording plays, read from the file itself: an MP3's frames are walked and counted
/// (so a file cut short is measured as it is, not as its header claims), an M4A's length is its
/// movie header's, once every top-level box is found whole. Nothing is decoded.
public enum AudioDuration {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Seconds of audio in `data`, read as `format` ("mp3" or "m4a").
    public static func seconds(of data: Data, format: String) throws(Failure) -> Double {
        switch format.lowercased() {
        case "mp3": return try mp3(data)
        case "m4a", "mp4": return try m4a(data)
        default: throw Failure(description: "is neither MP3 nor M4A")
        }
    }

    // MARK: MP3

    private struct FrameHeader {
        var length: Int
        var samples: Int
        var sampleRate: Int
        /// Where a Xing/Info header would sit, after the side information.
        var tagOffset: Int
    }

    private static let bitrates: [[Int]] = [
        [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // MPEG-1 layer I
        [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],     // MPEG-1 layer II
        [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],      // MPEG-1 layer III
        [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],     // MPEG-2/2.5 layer I
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],          // MPEG-2/2.5 layers II and III
    ]

    private static func frame(at i: Int, in b: UnsafeRawBufferPointer) -> FrameHeader? {
        guard i + 4 <= b.count, b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
        let version = Int(b[i + 1] >> 3) & 3      // 0: 2.5, 2: 2, 3: 1
        let layer = 4 - (Int(b[i + 1] >> 1) & 3)  // 1, 2, 3 (4: reserved)
        let rateIndex = Int(b[i + 2] >> 4), srIndex = Int(b[i + 2] >> 2) & 3
        let padding = Int(b[i + 2] >> 1) & 1, mono = b[i + 3] >> 6 == 3
        guard version != 1, layer <= 3, rateIndex != 0, rateIndex != 15, srIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let table = mpeg1 ? layer - 1 : (layer == 1 ? 3 : 4)
        let bitrate = bitrates[table][rateIndex - 1] * 1000
        let sampleRate = [[11025, 12000, 8000], [], [22050, 24000, 16000], [44100, 48000, 32000]][version][srIndex]
        let samples = layer == 1 ? 384 : (layer == 3 && !mpeg1 ? 576 : 1152)
        let length = layer == 1
            ? (12 * bitrate / sampleRate + padding) * 4
            : samples / 8 * bitrate / sampleRate + padding
        let side = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        return FrameHeader(length: length, samples: samples, sampleRate: sampleRate, tagOffset: 4 + side)
    }

    private static func mp3(_ data: Data) throws(Failure) -> Double {
        let found: Double? = data.withUnsafeBytes { b in
            var i = 0
            // ID3v2 tags, possibly several, each `ID3` + version + flags + a syncsafe size.
            while i + 10 <= b.count, b[i] == 0x49, b[i + 1] == 0x44, b[i + 2] == 0x33 {
                let size = (0..<4).reduce(0) { $0 << 7 | Int(b[i + 6 + $1] & 0x7F) }
                i += 10 + size + (b[i + 5] & 0x10 != 0 ? 10 : 0)
            }
            // The first frame is where two frames follow each other (or one ends the file): a
            // chance 0xFFE… in a tag's leftovers is not taken for audio.
            var first: FrameHeader?
            while i + 4 <= b.count {
                if let f = frame(at: i, in: b), i + f.length <= b.count,
                   i + f.length == b.count || frame(at: i + f.length, in: b) != nil {
                    first = f
                    break
                }
                i += 1
            }
            guard let first else { return nil }
            var samples = 0
            var rate = first.sampleRate
            // LAME's and Xing's first frame holds their header, and no sound.
            let tagAt = i + first.tagOffset
            if tagAt + 4 <= b.count, let tag = String(bytes: b[tagAt..<tagAt + 4], encoding: .ascii), tag == "Xing" || tag == "Info" {
                i += first.length
            }
            while let f = frame(at: i, in: b), i + f.length <= b.count {
                samples += f.samples
                rate = f.sampleRate
                i += f.length
            }
            return Double(samples) / Double(rate)
        }
        guard let found else { throw Failure(description: "is not an MP3 file: no audio frame was found in it") }
        guard found > 0 else { throw Failure(description: "holds no audio: its only frame is the encoder's header") }
        return found
    }

    // MARK: M4A

    private static func m4a(_ data: Data) throws(Failure) -> Double {
        let b = [UInt8](data)
        do {
            func u32(_ i: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(b[i + $1]) } }
            func u64(_ i: Int) -> Int { (0..<8).reduce(0) { $0 << 8 | Int(b[i + $1]) } }
            /// The boxes of `range`, as (type, content range); nil when one runs past the end.
            func boxes(_ range: Range<Int>) -> [(String, Range<Int>)]? {
                var out: [(String, Range<Int>)] = []
                var i = range.lowerBound
                while i + 8 <= range.upperBound {
                    var size = u32(i), header = 8
                    if size == 1 {
                        guard i + 16 <= range.upperBound else { return nil }
                        size = u64(i + 8); header = 16
                    } else if size == 0 {
                        size = range.upperBound - i
                    }
                    guard size >= header, i + size <= range.upperBound else { return nil }
                    out.append((String(decoding: b[i + 4..<i + 8], as: UTF8.self), i + header..<i + size))
                    i += size
                }
                return i == range.upperBound ? out : nil
            }
            guard b.count >= 8, String(decoding: b[4..<8], as: UTF8.self) == "ftyp" else {
                throw Failure(description: "is not an M4A file: it does not start with an MP4 file type box")
            }
            guard let top = boxes(0..<b.count) else {
                throw Failure(description: "is cut short: a box of the MP4 file runs past its end")
            }
            guard top.contains(where: { $0.0 == "mdat" }), let moov = top.first(where: { $0.0 == "moov" }),
                  let mvhd = boxes(moov.1)?.first(where: { $0.0 == "mvhd" }), mvhd.1.count >= 32 else {
                throw Failure(description: "is not a complete M4A file: its sound (mdat) or movie header (moov/mvhd) is missing")
            }
            let at = mvhd.1.lowerBound
            let (scale, duration) = b[at] == 1 ? (u32(at + 20), u64(at + 24)) : (u32(at + 12), u32(at + 16))
            guard scale > 0, duration > 0 else { throw Failure(description: "holds no audio: its movie header gives no length") }
            return Double(duration) / Double(scale)
        }
    }
}
