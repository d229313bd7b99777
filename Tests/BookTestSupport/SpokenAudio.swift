import Foundation

/// Speech recorded as the apps save it, for the narration tests: espeak-ng speaks the text to a
/// WAV file, which lame encodes as MP3 or ffmpeg as AAC in an M4A.
public enum SpokenAudio {
    /// Records `text` to `url` (its extension, mp3 or m4a, says how) and returns the WAV's exact
    /// length in seconds, what the recording should play for give or take the encoder's padding.
    @discardableResult
    public static func record(_ text: String, to url: URL) throws -> Double {
        let wav = url.deletingPathExtension().appendingPathExtension("wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let spoken = try run("espeak-ng", ["-s", "200", "-w", wav.path, text])
        guard spoken.status == 0 else { throw ToolError("espeak-ng failed: \(spoken.stderr)") }
        let encoded = url.pathExtension.lowercased() == "mp3"
            ? try run("lame", ["--quiet", "-b", "64", wav.path, url.path])
            : try run("ffmpeg", ["-loglevel", "error", "-y", "-i", wav.path, "-c:a", "aac", "-b:a", "64k", url.path])
        guard encoded.status == 0 else { throw ToolError("encoding \(url.lastPathComponent) failed: \(encoded.stderr)") }
        return try wavSeconds(Data(contentsOf: wav))
    }

    /// A canonical WAV's length: its data chunk's bytes over the bytes a second.
    static func wavSeconds(_ data: Data) throws -> Double {
        let b = [UInt8](data)
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        var i = 12, byteRate = 0
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<i + 4], as: UTF8.self), size = u32(i + 4)
            if id == "fmt " { byteRate = u32(i + 16) }
            if id == "data" {
                guard byteRate > 0 else { break }
                // espeak-ng writes a streaming header whose data size may be the largest there is.
                return Double(min(size, b.count - i - 8)) / Double(byteRate)
            }
            i += 8 + size + (size & 1)
        }
        throw ToolError("not a WAV file espeak-ng would write")
    }
}
