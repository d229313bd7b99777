import Testing
import Foundation
import BookTestSupport
import BookLayout

/// What the built program opens for books made to read what is not theirs, traced by strace
/// (`-ff -y`: every thread and child, with the path each returned descriptor really is). Besides the
/// book's folder and the outputs, a run may open only bookrender's own templates and fonts and
/// the system's libraries and configuration; never the files that links in `images/` and `fonts/`
/// lead to, never `/dev/zero`. Every command runs under `timeout`, so one blocked on a FIFO ends
/// and is reported instead of holding the suite.
@Suite(.serialized) struct ConfinementTraceTests {
    struct Run {
        var status: Int32
        /// What it printed, on stdout then stderr (`info` lists its warnings on stdout).
        var output: String
    }

    /// A fresh folder with `book/`, `outside/` (never to be opened), `out/` and `tmp/`.
    struct Work {
        let root: URL
        var book: URL { root.appendingPathComponent("book") }
        var outside: URL { root.appendingPathComponent("outside") }
        var out: URL { root.appendingPathComponent("out") }
        var tmp: URL { root.appendingPathComponent("tmp") }

        init() throws {
            root = try temporaryDirectory("trace").resolvingSymlinksInPath()
            for dir in [book, outside, out, tmp] {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            }
        }
    }

    static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

    /// Runs each argument list with the built binary, one after another in one shell under
    /// strace; returns how each ended and the real path of every descriptor an open returned.
    func traced(_ commands: [[String]], in work: Work) throws -> (runs: [Run], opened: Set<String>, lines: [Substring]) {
        let binary = try Repository.binary.path
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var script = ""
        for (i, arguments) in commands.enumerated() {
            let line = ([binary] + arguments).map(quoted).joined(separator: " ")
            script += "timeout -k 5 60 \(line) >\(quoted(work.tmp.path + "/out-\(i)")) 2>\(quoted(work.tmp.path + "/err-\(i)")) </dev/null; "
            script += "echo $? >\(quoted(work.tmp.path + "/status-\(i)"))\n"
        }
        let trace = work.tmp.appendingPathComponent("trace")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = Self.cache.path
        environment["TMPDIR"] = work.tmp.path
        environment["BOOKRENDER_HOME"] = Repository.root.path
        // -ff: a file per thread, so no call is split across lines by another thread's.
        let strace = try run("strace", ["-ff", "-y", "-qq", "-e", "trace=open,openat,openat2", "-o", trace.path, "/bin/sh", "-c", script],
                             environment: environment)
        #expect(strace.status == 0, "strace: \(strace.stderr)")
        let runs = try commands.indices.map { i in
            Run(status: Int32(try String(contentsOfFile: work.tmp.path + "/status-\(i)", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
                output: try String(contentsOfFile: work.tmp.path + "/out-\(i)", encoding: .utf8)
                    + String(contentsOfFile: work.tmp.path + "/err-\(i)", encoding: .utf8))
        }
        var opened = Set<String>()
        let files = try FileManager.default.contentsOfDirectory(atPath: work.tmp.path).filter { $0.hasPrefix("trace.") }
        // Each line with the name of its file (`trace.<pid>`): which process opened what.
        let lines = try files.sorted().flatMap { file in
            try String(contentsOfFile: work.tmp.path + "/" + file, encoding: .utf8).split(separator: "\n").map { Substring("\(file): \($0)") }
        }
        for line in lines {
            // "= 5</real/path>" at the end of a successful open.
            guard let range = line.range(of: #"= [0-9]+<(.*)>$"#, options: .regularExpression) else { continue }
            var path = String(line[range].drop { $0 != "<" }.dropFirst().dropLast())
            if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
            if path.hasPrefix("/") { opened.insert(path) }
        }
        #expect(!opened.isEmpty, "strace saw no open at all")
        return (runs, opened, lines)
    }

    /// Where the runs keep their font caches: shared by the tests, so only the first one scans.
    static let cache: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bookrender-trace-cache-\(getuid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.resolvingSymlinksInPath()
    }()

    /// The paths a run may open besides the work folder's `book/`, `out/` and `tmp/`.
    static func allowed() throws -> (prefixes: [String], files: Set<String>) {
        let root = Repository.root.resolvingSymlinksInPath().path
        let manifest = try FontManifest.load(from: Repository.resources.fontManifest)
        let fonts = manifest.files.map { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path }
        let binary = try Repository.binary.resolvingSymlinksInPath().path
        let prefixes = [
            root + "/templates/", root + "/fonts/", cache.path + "/",
            // the system's libraries (the toolchain's for a debug build) and their data
            "/usr/lib/", "/lib/", "/lib64/", "/usr/lib64/", "/opt/swift/", "/usr/share/zoneinfo/", "/usr/share/locale/",
            "/usr/share/hyphen/", "/etc/fonts/", "/proc/", "/sys/",
        ]
        // The checkout itself is looked into for templates/ and fonts/.
        let files: Set<String> = Set(fonts + [root, binary, "/etc/ld.so.cache", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf",
                                              "/etc/localtime", "/etc/locale.alias", "/dev/null", "/dev/urandom", "/dev/tty"])
        return (prefixes, files)
    }

    /// `lines`: the trace, for a failure to show which process opened a path it should not have.
    func expectOnlyAllowed(_ opened: Set<String>, _ work: Work, lines: [Substring]) throws {
        let (prefixes, files) = try Self.allowed()
        let mine = [work.book, work.out, work.tmp].map { $0.path }
        let stray = opened.filter { path in
            !files.contains(path) && !prefixes.contains { path.hasPrefix($0) }
                && !mine.contains { path == $0 || path.hasPrefix($0 + "/") }
        }
        #expect(stray.isEmpty, """
            opened outside the book's folder and bookrender's own files: \(stray.sorted())
            \(stray.sorted().flatMap { path in lines.filter { $0.hasSuffix("<\(path)>") }.prefix(3) }.joined(separator: "\n"))
            """)
        let outside = opened.filter { $0 == work.outside.path || $0.hasPrefix(work.outside.path + "/") }
        #expect(outside.isEmpty, "opened the folder beside the book: \(outside.sorted())")
        #expect(!opened.contains("/dev/zero"))
        #expect(!opened.contains { $0.contains("/dejavu/") }, "opened a font of the system outside the font set")
    }

    func write(_ json: String, to url: URL) throws { try Data(json.utf8).write(to: url) }

    @Test func hostileImagesFontsAndBookFilesOpenNothingOutside() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sans), "needs fonts-dejavu-core (scripts/install-deps.sh)")
        let work = try Work()
        defer { try? FileManager.default.removeItem(at: work.root) }
        let book = work.book, images = book.appendingPathComponent("images"), fonts = book.appendingPathComponent("fonts")
        for dir in [images, fonts] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        let real = try TestImages.gradientJPEG(width: 160, height: 120)
        try real.write(to: images.appendingPathComponent("real.jpg"))
        try HostileFolders.outsideJPEG(sizedLike: real, marker: "NOT-IN-THE-BOOK").write(to: work.outside.appendingPathComponent("secret.jpg"))
        try FileManager.default.copyItem(atPath: Self.sans, toPath: work.outside.appendingPathComponent("Elsewhere.ttf").path)
        try FileManager.default.copyItem(atPath: Self.serif, toPath: fonts.appendingPathComponent("Own.ttf").path)
        // Images: links out (to a file, through a folder, absolute), to a device, a FIFO, and a link that stays inside.
        try HostileFolders.link(images.appendingPathComponent("alias.jpg"), to: "real.jpg")
        try HostileFolders.link(images.appendingPathComponent("escape.jpg"), to: "../../outside/secret.jpg")
        try HostileFolders.link(images.appendingPathComponent("outdir"), to: "../../outside")
        try HostileFolders.link(images.appendingPathComponent("absolute.jpg"), to: work.outside.appendingPathComponent("secret.jpg").path)
        try HostileFolders.link(images.appendingPathComponent("zero.jpg"), to: "/dev/zero")
        try HostileFolders.fifo(images.appendingPathComponent("fifo.jpg"))
        // Fonts: a link to the system's font, a link to a folder outside, a device, a FIFO.
        try HostileFolders.link(fonts.appendingPathComponent("System.ttf"), to: Self.sans)
        try HostileFolders.link(fonts.appendingPathComponent("outdir"), to: "../../outside")
        try HostileFolders.link(fonts.appendingPathComponent("zero.ttf"), to: "/dev/zero")
        try HostileFolders.fifo(fonts.appendingPathComponent("pipe.ttf"))
        // The book file itself a FIFO.
        try HostileFolders.fifo(book.appendingPathComponent("fifo.json"))
        // A second book whose `fonts` is a link to the folder outside, a third whose `images` is.
        let linked = work.book.appendingPathComponent("linked"), linkedImages = work.book.appendingPathComponent("linked-images")
        for dir in [linked, linkedImages] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        try FileManager.default.createDirectory(at: linked.appendingPathComponent("images"), withIntermediateDirectories: true)
        try real.write(to: linked.appendingPathComponent("images/real.jpg"))
        try HostileFolders.link(linked.appendingPathComponent("fonts"), to: work.outside.path)
        try HostileFolders.link(linkedImages.appendingPathComponent("images"), to: "../../outside")

        func bookJSON(_ image: String) -> String {
            #"{"schema": 1, "kind": "storybook", "title": "T", "tokens": {"typography": {"body": {"family": "DejaVu Sans"}}}, "#
                + #""pages": [{"type": "illustration", "image": "\#(image)", "text": "Hello there."}]}"#
        }
        let refused = ["escape": ("images/escape.jpg", "symbolic link"), "outdir": ("images/outdir/secret.jpg", "symbolic link"),
                       "absolute": ("images/absolute.jpg", "symbolic link"), "zero": ("images/zero.jpg", "symbolic link"),
                       "alias": ("images/alias.jpg", "symbolic link"), "fifo-image": ("images/fifo.jpg", "FIFO")]
        try write(bookJSON("images/real.jpg"), to: book.appendingPathComponent("ok.json"))
        for (name, (image, _)) in refused { try write(bookJSON(image), to: book.appendingPathComponent("\(name).json")) }
        try write(bookJSON("images/real.jpg"), to: linked.appendingPathComponent("book.json"))
        try write(bookJSON("images/secret.jpg"), to: linkedImages.appendingPathComponent("book.json"))

        let names = refused.keys.sorted()
        func path(_ name: String) -> String { book.appendingPathComponent(name).path }
        var commands: [[String]] = [
            ["export", path("ok.json"), "-o", work.out.appendingPathComponent("ok.pdf").path],
            ["validate", path("ok.json")],
            ["info", path("ok.json")],
            ["export", linked.appendingPathComponent("book.json").path, "-o", work.out.appendingPathComponent("linked.pdf").path],
            ["export", linkedImages.path, "-o", work.out.appendingPathComponent("linked-images.pdf").path],
            ["validate", path("fifo.json")],
            ["export", path("fifo.json"), "-o", work.out.appendingPathComponent("fifo-book.pdf").path],
        ]
        for name in names { commands.append(["export", path("\(name).json"), "-o", work.out.appendingPathComponent("\(name).pdf").path]) }
        // A FIFO as a picture must not hold the commands that only read the book either.
        commands += [["validate", path("fifo-image.json")], ["info", path("fifo-image.json")]]
        let (runs, opened, lines) = try traced(commands, in: work)

        for (i, run) in runs.enumerated() {
            #expect(run.status != 124 && run.status != 137, "\(commands[i]) did not end (blocked)")
        }
        // The book that only uses what is its own exports, warning about each font entry it refuses.
        for i in 0..<3 {
            #expect(runs[i].status == 0, "\(commands[i]): \(runs[i].output)")
            for (entry, reason) in [("fonts/System.ttf", "symbolic link"), ("fonts/outdir", "symbolic link"), ("fonts/zero.ttf", "symbolic link"),
                                    ("fonts/pipe.ttf", "FIFO")] {
                #expect(runs[i].output.split(separator: "\n").contains { $0.contains(entry + " ") && $0.contains(reason) },
                        "\(commands[i]) does not warn about \(entry): \(runs[i].output)")
            }
        }
        #expect(runs[3].status == 0 && runs[3].output.contains("fonts folder fonts is a symbolic link"), "\(runs[3].output)")
        #expect(runs[4].status == 65 && runs[4].output.contains("images/secret.jpg\" goes through images, which is a symbolic link"),
                "\(runs[4].status) \(runs[4].output)")
        for i in 5...6 {
            #expect(runs[i].status == 66 && runs[i].output.contains("fifo.json") && runs[i].output.contains("FIFO"), "\(commands[i]): \(runs[i].output)")
        }
        for (k, name) in names.enumerated() {
            let run = runs[7 + k], (image, reason) = refused[name]!
            #expect(run.status == 65 && run.output.contains(image) && run.output.contains(reason), "\(name): \(run.status) \(run.output)")
        }
        for run in runs.suffix(2) {
            #expect(run.status == 65 && run.output.contains("images/fifo.jpg") && run.output.contains("FIFO"), "\(run.status) \(run.output)")
        }
        try expectOnlyAllowed(opened, work, lines: lines)
    }

    @Test func aPictureAndAFontSwappedForLinksDuringExportsOpenNothingOutside() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sans), "needs fonts-dejavu-core (scripts/install-deps.sh)")
        let work = try Work()
        defer { try? FileManager.default.removeItem(at: work.root) }
        let images = work.book.appendingPathComponent("images"), fonts = work.book.appendingPathComponent("fonts")
        for dir in [images, fonts] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        let font = fonts.appendingPathComponent("Own.ttf"), keptFont = fonts.appendingPathComponent(".keep.ttf")
        try FileManager.default.copyItem(atPath: Self.serif, toPath: font.path)
        try FileManager.default.linkItem(at: font, to: keptFont)
        try FileManager.default.copyItem(atPath: Self.sans, toPath: work.outside.appendingPathComponent("Elsewhere.ttf").path)
        let real = try TestImages.gradientJPEG(width: 320, height: 240)
        let marker = "OUTSIDE-THE-BOOK-\(UUID().uuidString)"
        let photo = images.appendingPathComponent("photo.jpg"), keep = images.appendingPathComponent(".keep.jpg")
        try real.write(to: photo)
        try FileManager.default.linkItem(at: photo, to: keep)
        try HostileFolders.outsideJPEG(sizedLike: real, marker: marker).write(to: work.outside.appendingPathComponent("secret.jpg"))
        let pages = (0..<3).map { #"{"type": "illustration", "image": "images/photo.jpg", "text": "Page \#($0)."}"# }
        try write(#"{"schema": 1, "kind": "storybook", "title": "Swapped", "tokens": {"typography": {"body": {"family": "DejaVu Serif"}}}, "pages": [\#(pages.joined(separator: ", "))]}"#,
                  to: work.book.appendingPathComponent("book.json"))
        let pdfs = (0..<8).map { work.out.appendingPathComponent("swapped-\($0).pdf") }

        let swapper = FileSwapper(photo, real: keep, outside: "../../outside/secret.jpg")
        let fontSwapper = FileSwapper(font, real: keptFont, outside: "../../outside/Elsewhere.ttf")
        swapper.start()
        fontSwapper.start()
        let traced = try traced(pdfs.map { ["export", work.book.appendingPathComponent("book.json").path, "-o", $0.path] }, in: work)
        swapper.stop()
        fontSwapper.stop()

        #expect(swapper.swaps > 0 && fontSwapper.swaps > 0)
        for (run, pdf) in zip(traced.runs, pdfs) {
            if run.status == 0 {
                let bytes = try Data(contentsOf: pdf)
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "the outside file is in \(pdf.lastPathComponent)")
            } else {
                #expect(run.status == 65 && run.output.contains("images/photo.jpg"), "\(run.status) \(run.output)")
            }
        }
        try expectOnlyAllowed(traced.opened, work, lines: traced.lines)
        // Each export opens the picture for reading once at most (three pages show it), and reads
        // only that descriptor afterwards; a run that met the link opened it for nothing.
        let reads = traced.lines.filter {
            $0.contains(#""images/photo.jpg""#) && $0.contains("O_RDONLY") && !$0.contains("O_PATH")
                && $0.range(of: #"= [0-9]+<"#, options: .regularExpression) != nil
        }
        #expect(reads.count <= pdfs.count, "\(reads.count) opens of the picture for reading in \(pdfs.count) exports")
        #expect(reads.count >= traced.runs.filter { $0.status == 0 }.count, "the trace did not show the picture's opens")
    }
}
