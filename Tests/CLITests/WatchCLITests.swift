import Testing
import Foundation
import BookTestSupport

/// `bookrender watch` sees a save to book.json by itself, rewrites only the page the edit
/// changed, says so, outlives a broken save, and ends on Ctrl-C leaving no temporaries.
@Suite struct WatchCLITests {
    @Test func aSavedEditRewritesOnlyItsPage() throws {
        let root = try temporaryDirectory("watch")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: folder)
        let book = folder.appendingPathComponent("book.json"), pages = root.appendingPathComponent("pages")
        let out = root.appendingPathComponent("out.txt"), err = root.appendingPathComponent("err.txt")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)

        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["watch", book.path, "--png", pages.path, "--dpi", "40"]
        p.environment = ProcessInfo.processInfo.environment.merging(["BOOKRENDER_HOME": Repository.root.path]) { $1 }
        let scratch = try OutputFixtures.privateScratch(for: p)
        defer { try? FileManager.default.removeItem(at: scratch) }
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        func lines() -> [String] { (try? String(contentsOf: out, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? [] }
        func waitForLines(_ n: Int) -> Bool {
            // Generous: a loaded machine is slow, and the test is about what is written, not when.
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, p.isRunning, lines().count < n { usleep(20_000) }
            return lines().count >= n
        }
        try #require(waitForLines(1), "no first render: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        // Watching starts after the first render is reported; the message on stderr says it has.
        let watching = Date().addingTimeInterval(60)
        while Date() < watching, !((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("watching") { usleep(20_000) }
        let before = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted().map { name in
            (name, try FileManager.default.attributesOfItem(atPath: pages.appendingPathComponent(name).path)[.modificationDate] as! Date)
        }
        #expect(before.count > 3)

        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: book)) as! [String: Any]
        var bookPages = json["pages"] as! [[String: Any]]
        let edited = try #require(bookPages.firstIndex { $0["text"] is String })
        bookPages[edited]["text"] = (bookPages[edited]["text"] as! String) + " And then it rained."
        json["pages"] = bookPages
        // Saved as editors do: a new file renamed over the old.
        let saved = folder.appendingPathComponent("book.json.new")
        try JSONSerialization.data(withJSONObject: json).write(to: saved)
        #expect(rename(saved.path, book.path) == 0)
        try #require(waitForLines(2), "the edit was not seen: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")

        let report = lines()[1]
        #expect(report.contains("book.json changed: redrew page "), "\(report)")
        let after = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted().map { name in
            (name, try FileManager.default.attributesOfItem(atPath: pages.appendingPathComponent(name).path)[.modificationDate] as! Date)
        }
        #expect(after.map(\.0) == before.map(\.0))
        let rewritten = zip(before, after).filter { $0.1 != $1.1 }.map(\.0.0)
        #expect(rewritten.count == 1, "\(rewritten)")
        if let name = rewritten.first, let number = Int(name.dropFirst(5).prefix(3)) {
            #expect(report.contains("redrew page \(number) of"), "\(report)")
        }

        // A picture saved over: the pages showing it, and only those.
        let images = folder.appendingPathComponent("images")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: images.path).filter { $0.hasSuffix(".jpg") }.sorted()
        let beforePicture = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted().map { name in
            (name, try FileManager.default.attributesOfItem(atPath: pages.appendingPathComponent(name).path)[.modificationDate] as! Date)
        }
        try FileManager.default.copyItem(at: images.appendingPathComponent(pictures[2]), to: images.appendingPathComponent("new.tmp"))
        #expect(rename(images.appendingPathComponent("new.tmp").path, images.appendingPathComponent(pictures[1]).path) == 0)
        try #require(waitForLines(3), "the picture's change was not seen: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        let pictureReport = lines()[2]
        #expect(pictureReport.hasPrefix("images/\(pictures[1]) changed: redrew page"), "\(pictureReport)")
        let afterPicture = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted().map { name in
            (name, try FileManager.default.attributesOfItem(atPath: pages.appendingPathComponent(name).path)[.modificationDate] as! Date)
        }
        let redrawn = zip(beforePicture, afterPicture).filter { $0.1 != $1.1 }.compactMap { Int($0.0.0.dropFirst(5).prefix(3)) }
        #expect(!redrawn.isEmpty && redrawn.count < afterPicture.count, "\(redrawn)")
        #expect(pictureReport.contains(redrawn.count == 1 ? "redrew page \(redrawn[0]) of" : "redrew pages \(redrawn[0])"), "\(pictureReport)")

        // A broken save is reported and the pages stay; the watch goes on.
        try Data("{\"title\": ".utf8).write(to: book)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, !((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("the pages stay as they were") {
            usleep(20_000)
        }
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        #expect(stderr.contains("book.json changed: error:"), "\(stderr)")
        #expect(p.isRunning)

        kill(p.processIdentifier, SIGINT)
        try p.waitForExit(within: 300, "watch after Ctrl-C")
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGINT)
        #expect(OutputFixtures.temporaries(in: [pages, folder], process: p.processIdentifier, scratch: scratch) == [])
    }

    @Test func jsonGivesEachRefreshAsOneLineOfTheReportSchema() throws {
        let root = try temporaryDirectory("watch-json")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("memoir"), to: folder)
        let out = root.appendingPathComponent("out.txt")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["watch", folder.appendingPathComponent("book.json").path, "--png", root.appendingPathComponent("pages").path,
                       "--dpi", "20", "--json"]
        p.environment = ProcessInfo.processInfo.environment.merging(["BOOKRENDER_HOME": Repository.root.path]) { $1 }
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(120)
        func firstLine() -> String? {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            return text.contains("\n") ? String(text.prefix { $0 != "\n" }) : nil
        }
        while Date() < deadline, p.isRunning, firstLine() == nil { usleep(20_000) }
        let line = try #require(firstLine(), "no refresh printed")
        let violations = try JSONSchemaCheck.violations(of: Data(line.utf8), against: Repository.root.appendingPathComponent("schema/report.schema.json"))
        #expect(violations == [], "\(violations ?? [])")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["command"] as? String == "watch")
        let pages = try #require(object["pageCount"] as? Int)
        #expect(object["written"] as? [Int] == Array(1...pages))
    }
}
