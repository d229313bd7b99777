import Testing
import Foundation
import BookTestSupport

/// An export stopped by SIGINT or SIGTERM ends by that signal, removes its temporaries, and leaves
/// each output as it was or whole: the previous PDF or the new one, the previous page set or the
/// new one, never some of each.
@Suite(.serialized) struct InterruptionTests {
    enum Moment: String, CaseIterable {
        /// The PDF's temporary file has appeared: the PDF is being drawn.
        case drawingThePDF
        /// The page set's staging folder has a few pages: the PNGs are being written.
        case writingThePages
    }

    struct Outputs: Equatable {
        var pdf: Data?
        var pages: [String: Data]
    }

    func outputs(_ pdf: URL, _ pages: URL) throws -> Outputs {
        Outputs(pdf: try? Data(contentsOf: pdf), pages: try OutputFixtures.contents(of: pages))
    }

    /// Puts `outputs` back in place of whatever is there.
    func restore(_ outputs: Outputs, _ pdf: URL, _ pages: URL) throws {
        try? FileManager.default.removeItem(at: pages)
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        for (name, data) in outputs.pages { try data.write(to: pages.appendingPathComponent(name)) }
        try outputs.pdf?.write(to: pdf)
    }

    @Test func aStoppedExportRemovesItsTemporariesAndLeavesEachOutputWhole() throws {
        let book = try OutputFixtures.sizeableMemoir()
        let dir = try temporaryDirectory("interrupted")
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: book.deletingLastPathComponent())
        }
        let binary = try Repository.binary.path
        func export(_ book: String, to pdf: URL, _ pages: URL, dpi: Int) -> [String] {
            ["export", book, "-o", pdf.path, "--png", pages.path, "--dpi", String(dpi), "--workers", "2"]
        }
        // The previous outputs come from another book, with fewer pages: a mix would show.
        let pdf = dir.appendingPathComponent("book.pdf"), pages = dir.appendingPathComponent("pages")
        let previousRun = try run(binary, export(Repository.samples.appendingPathComponent("memoir/book.json").path, to: pdf, pages, dpi: 40))
        try #require(previousRun.status == 0, "\(previousRun.stderr)")
        let previous = try outputs(pdf, pages)
        let newPDF = dir.appendingPathComponent("new.pdf"), newPages = dir.appendingPathComponent("new-pages")
        let complete = try run(binary, export(book.path, to: newPDF, newPages, dpi: 200))
        try #require(complete.status == 0, "\(complete.stderr)")
        let new = try outputs(newPDF, newPages)
        #expect(new.pages.count > previous.pages.count)

        for moment in Moment.allCases {
            for signal in [SIGINT, SIGTERM] {
                try restore(previous, pdf, pages)
                let p = Process()
                p.executableURL = URL(fileURLWithPath: binary)
                p.arguments = export(book.path, to: pdf, pages, dpi: 200)
                let scratch = try OutputFixtures.privateScratch(for: p)
                defer { try? FileManager.default.removeItem(at: scratch) }
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try p.run()
                let reached = OutputFixtures.wait(for: p) {
                    switch moment {
                    case .drawingThePDF:
                        return !OutputFixtures.temporaries(in: [dir]).isEmpty
                    case .writingThePages:
                        return OutputFixtures.temporaries(in: [pages]).contains { staging in
                            ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).filter { $0.hasPrefix("page-") }.count >= 3
                        }
                    }
                }
                kill(p.processIdentifier, signal)
                try p.waitForExit(within: 300, "the stopped export")

                let when = "\(moment), signal \(signal)"
                #expect(OutputFixtures.temporaries(in: [dir, pages], process: p.processIdentifier, scratch: scratch) == [], "\(when)")
                let after = try outputs(pdf, pages)
                #expect(after.pdf == previous.pdf || after.pdf == new.pdf, "\(when): the PDF is neither the previous one nor the new one")
                #expect(after.pages == previous.pages || after.pages == new.pages,
                        "\(when): the page set is neither the previous one nor the new one: \(after.pages.keys.sorted())")
                guard reached else { continue }
                #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == signal,
                        "\(when): ended with \(p.terminationStatus) (\(p.terminationReason == .exit ? "exit" : "signal"))")
                // Stopped before the page set was complete: it is the previous one.
                #expect(after.pages == previous.pages, "\(when)")
                if moment == .drawingThePDF { #expect(after.pdf == previous.pdf, "\(when)") }
            }
        }
    }

    /// A crash (a fault or an abort, here sent from outside while the PDF is drawn) removes the
    /// export's temporaries before the process ends by it, and the previous PDF stays.
    @Test(arguments: [SIGSEGV, SIGILL, SIGBUS, SIGABRT])
    func aCrashLeavesNoHalfWrittenFile(_ signal: Int32) throws {
        let book = try OutputFixtures.sizeableMemoir()
        let dir = try temporaryDirectory("crashed")
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: book.deletingLastPathComponent())
        }
        let pdf = dir.appendingPathComponent("book.pdf")
        let previous = Data("%PDF-1.4 the previous file\n".utf8)
        try previous.write(to: pdf)
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["export", book.path, "-o", pdf.path, "--workers", "2"]
        let scratch = try OutputFixtures.privateScratch(for: p)
        defer { try? FileManager.default.removeItem(at: scratch) }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let reached = OutputFixtures.wait(for: p) { !OutputFixtures.temporaries(in: [dir]).isEmpty }
        kill(p.processIdentifier, signal)
        try p.waitForExit(within: 300, "the crashed export")
        #expect(OutputFixtures.temporaries(in: [dir], process: p.processIdentifier, scratch: scratch) == [], "signal \(signal)")
        #expect(try Data(contentsOf: pdf) == previous, "signal \(signal): the previous PDF")
        if reached {
            #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == signal,
                    "ended with \(p.terminationStatus) (\(p.terminationReason == .exit ? "exit" : "signal"))")
        }
    }

    /// A reader of `--events` that goes away after the first line (`| head -1`) does not stop the
    /// export half-way: the PDF is written whole and nothing is left beside it.
    @Test func aClosedEventsPipeLetsTheExportFinish() throws {
        let book = try OutputFixtures.sizeableMemoir(copies: 4)
        let dir = try temporaryDirectory("closed-events")
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: book.deletingLastPathComponent())
        }
        let pdf = dir.appendingPathComponent("book.pdf")
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["export", book.path, "-o", pdf.path, "--events"]
        let scratch = try OutputFixtures.privateScratch(for: p)
        let stdout = Pipe()
        p.standardOutput = stdout
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first += chunk
        }
        try stdout.fileHandleForReading.close()
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0,
                "ended with \(p.terminationStatus) (\(p.terminationReason == .exit ? "exit" : "signal"))")
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["book.pdf"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
