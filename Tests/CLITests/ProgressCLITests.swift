import Testing
import Foundation
import BookTestSupport

/// A long export shows where it is: a progress line on a terminal (and nothing of it elsewhere),
/// JSON Lines events with `--events`, nothing but problems with `-q`, stage times with `-v`.
@Suite struct ProgressCLITests {
    let memoir = Repository.samples.appendingPathComponent("memoir/book.json").path

    func export(_ dir: URL, _ extra: [String]) -> [String] {
        ["export", memoir, "-o", dir.appendingPathComponent("book.pdf").path,
         "--png", dir.appendingPathComponent("pages").path, "--dpi", "30"] + extra
    }

    @Test func aTerminalSeesTheProgressLineAndAPipeDoesNot() throws {
        let dir = try temporaryDirectory("progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = try Repository.binary.path
        // `script` runs the export on a pseudo-terminal and copies what it shows.
        let command = ([binary] + export(dir, [])).map { "'\($0)'" }.joined(separator: " ")
        let onTerminal = try run("script", ["-qefc", command, "/dev/null"])
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pages").path).count
        #expect(onTerminal.stdout.contains("\r\u{1B}[Kpng pages \(pages)/\(pages)"), "\(onTerminal.stdout.debugDescription)")
        #expect(onTerminal.stdout.contains("wrote "))

        let piped = try run(binary, export(dir, []))
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("png pages") && !piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
    }

    @Test func illustrateShowsPicturesDoneOnATerminal() throws {
        let dir = try temporaryDirectory("picture-progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = dir.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book)
        let command = [try Repository.binary.path, "illustrate", book.appendingPathComponent("book.json").path,
                       "--provider", "local", "--cache", dir.appendingPathComponent("cache").path]
            .map { "'\($0)'" }.joined(separator: " ")
        let r = try run("script", ["-qefc", command, "/dev/null"])
        #expect(r.status == 0, "\(r.stdout)")
        let missing = try #require(r.stdout.firstMatch(of: /(\d+) picture\(s\) to make/).flatMap { Int($0.1) })
        #expect(r.stdout.contains("\r\u{1B}[Kpictures \(missing)/\(missing)"), "\(r.stdout.debugDescription)")
    }

    @Test func eventsAreJSONLinesEndingWithTheOutcome() throws {
        let dir = try temporaryDirectory("events")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(try Repository.binary.path, export(dir, ["--events"]))
        #expect(r.status == 0, "\(r.stderr)")
        let events = try r.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pages").path).count
        let png = events.filter { $0["event"] as? String == "progress" && $0["stage"] as? String == "png" }
        #expect(png.map { $0["done"] as? Int } == Array(1...pages).map { Optional($0) })
        #expect(png.allSatisfy { $0["total"] as? Int == pages })
        let pdf = events.filter { $0["event"] as? String == "progress" && $0["stage"] as? String == "pdf" }
        #expect(pdf.last?["done"] as? Int == pages)
        let last = try #require(events.last)
        #expect(last["event"] as? String == "done" && last["pages"] as? Int == pages && last["pngFiles"] as? Int == pages)
    }

    @Test func quietPrintsNothingForACleanBookAndVerboseAddsStageTimes() throws {
        let dir = try temporaryDirectory("levels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = try Repository.binary.path
        let quiet = try run(binary, export(dir, ["-q"]))
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet.stderr)")
        let verbose = try run(binary, export(dir, ["-v"]))
        #expect(verbose.status == 0)
        for stage in ["load", "resolve", "png"] {
            #expect(verbose.stderr.split(separator: "\n").contains { $0.hasPrefix("  \(stage) ") && $0.hasSuffix(" s") }, "\(verbose.stderr)")
        }
        let both = try run(binary, export(dir, ["-q", "-v"]))
        #expect(both.status == 64, "\(both.stderr)")
    }
}
