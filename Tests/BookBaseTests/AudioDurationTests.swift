import Foundation
import Testing
import BookBase
import BookTestSupport

/// Recordings made by the encoders the apps' own platforms use (LAME for MP3, an AAC encoder in
/// an M4A), measured against the speech they were made from.
@Suite struct AudioDurationTests {
    static let sentence = "Pip the little fox lived in a den at the bottom of Clover Hill. Every evening, far across the bay, a light blinked on and off."

    @Test(arguments: ["mp3", "m4a"])
    func aRecordingPlaysAsLongAsTheSpeech(_ format: String) throws {
        let dir = try temporaryDirectory("audio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("speech.\(format)")
        let spoken = try SpokenAudio.record(Self.sentence, to: file)
        let measured = try AudioDuration.seconds(of: Data(contentsOf: file), format: format)
        // The encoders pad the end to a whole frame (1152 samples for MP3, 1024 for AAC) and
        // add their start-up delay.
        #expect(measured >= spoken - 0.01 && measured < spoken + 0.15, "\(measured) s measured, \(spoken) s spoken")
    }

    /// The frames are counted, not the header's claim: half a file plays half as long.
    @Test func anMP3CutShortIsMeasuredAsItIs() throws {
        let dir = try temporaryDirectory("audio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("speech.mp3")
        try SpokenAudio.record(Self.sentence, to: file)
        let whole = try Data(contentsOf: file)
        let full = try AudioDuration.seconds(of: whole, format: "mp3")
        let half = try AudioDuration.seconds(of: whole.prefix(whole.count / 2), format: "mp3")
        #expect(abs(half - full / 2) < 0.1, "\(half) s of \(full) s")
    }

    @Test func anM4ACutShortIsRefused() throws {
        let dir = try temporaryDirectory("audio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("speech.m4a")
        try SpokenAudio.record(Self.sentence, to: file)
        let whole = try Data(contentsOf: file)
        #expect(throws: AudioDuration.Failure.self) { try AudioDuration.seconds(of: whole.prefix(whole.count - 100), format: "m4a") }
    }

    @Test(arguments: ["mp3", "m4a"])
    func whatIsNoRecordingIsRefused(_ format: String) throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: UInt8(7), count: 500))
        do {
            _ = try AudioDuration.seconds(of: png, format: format)
            Issue.record("a PNG was measured as audio")
        } catch {
            #expect(error.description.contains(format == "mp3" ? "no audio frame" : "does not start with an MP4 file type box"), "\(error)")
        }
    }
}
