import Testing
import Foundation
import BookTestSupport

/// A short run of `fuzz/fuzz.py`: books and pictures mutated from the golden cases and the app
/// samples (a fixed seed, so the same cases every run), each through validate, info and export
/// under a memory limit and a time-out. None may crash, hang, exit with an undocumented code, fail
/// without naming the file and the place, or write a PDF qpdf rejects.
@Suite struct FuzzTests {
    @Test func mutatedBooksNeverCrashHangOrFailWithoutSayingWhere() throws {
        let out = try temporaryDirectory("fuzz")
        let r = try run("python3", [Repository.root.appendingPathComponent("fuzz/fuzz.py").path,
                                    "--binary", try Repository.binary.path, "--cases", "100", "--seed", "1",
                                    "--jobs", "2", "--timeout", "120", "--out", out.path])
        let summary = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any]
        let failures = summary?["failures"] as? [[String: Any]] ?? []
        #expect(r.status == 0 && failures.isEmpty,
                "\(failures.count) failing case(s), kept in \(out.path):\n\(failures.prefix(10).map { "\($0)" }.joined(separator: "\n"))\n\(r.stderr)")
        if r.status == 0 { try? FileManager.default.removeItem(at: out) }
    }
}
