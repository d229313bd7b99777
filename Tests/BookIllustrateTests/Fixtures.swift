import Foundation
import BookModel
@testable import BookIllustrate
import BookTestSupport

let testKey = "sk-test-SECRET-123"

/// A storybook with a cover to make, a main character with a picture, two secondary characters and
/// `pages` illustration pages whose scenes carry a marker ("SCENE-03") the server can match.
func makeBook(pages: Int, in folder: URL, coverPhoto: Bool = false, characterImage: Bool = true) throws -> URL {
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
    try TestImages.tinyPNG(200).write(to: folder.appendingPathComponent("images/hero.png"))
    if coverPhoto { try TestImages.tinyPNG(90).write(to: folder.appendingPathComponent("images/child.png")) }
    let book = Book(kind: .storybook, title: "Tam and the Tide", artStyle: "Kid's Book",
                    cover: Cover(title: "Tam and the Tide", accent: "#E07A2F", photo: nil),
                    characters: Characters(
                        main: MainCharacter(name: "Tam", description: "a small otter in a yellow raincoat",
                                            image: characterImage ? .path("images/hero.png") : nil),
                        secondary: [SecondaryCharacter(name: "Farmer Jeremy", role: "supporting", appearance: Appearance(
                            age: "elderly man, approximately 65-70 years old", hair: "short gray hair, slightly balding on top",
                            face: "kind wrinkled face with warm smile and rosy cheeks", build: "tall and lean",
                            clothing: "red and white checkered flannel shirt, faded blue denim overalls",
                            accessories: "weathered straw hat with faded red band", distinctive: "bushy white eyebrows, deep laugh lines"))]),
                    pages: (1...pages).map { i in
                        let n = String(format: "%02d", i)
                        return Page(id: "p\(n)", IllustrationPage(text: "Page \(i) text.", scene: "SCENE-\(n) Tam by the sea, moment \(i)."))
                    })
    let url = folder.appendingPathComponent("book.json")
    try BookExporter.encode(book).write(to: url)
    return url
}

/// Collects log lines from concurrent jobs.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    var text: String { all.joined(separator: "\n") }
}

func options(_ provider: ProviderName, server: ProviderServer?, cache: URL, concurrency: Int = 2,
             lines: Lines = Lines(), dryRun: Bool = false) -> IllustrateOptions {
    IllustrateOptions(provider: ProviderSettings(name: provider, baseURL: server?.baseURL, apiKey: provider == .local ? "" : testKey, timeout: 10),
                      concurrency: concurrency, resolution: .preview, dryRun: dryRun,
                      cache: IllustrationCache(directory: cache),
                      retry: RetryPolicy(maxAttempts: 5, baseDelay: 0.05, maxDelay: 1),
                      log: { lines.add($0) }, output: { lines.add($0) })
}

/// The scene marker in a prompt: "01"…, or "cover" for the cover.
func marker(_ prompt: String) -> String {
    if let r = prompt.range(of: #"SCENE-\d+"#, options: .regularExpression), prompt.contains("SCENE (") {
        return String(prompt[r].dropFirst(6))
    }
    if prompt.contains("front cover") { return "cover" }
    if prompt.contains("PORTRAIT-ORIENTED colorful cartoon") { return "character" }
    return "?"
}

func loadBook(_ url: URL) throws -> Book { try BookLoader.load(contentsOf: url).book }

/// A one-colour PNG of any size whose signature, header and end are sound but whose image data is
/// not deflate data: only decoding it finds the fault.
func undecodablePNG(width: Int, height: Int) -> Data {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(TestImages.crc32(body)))
    }
    let garbage = [0x78, 0x9C] + (0..<512).map { UInt8(($0 * 37 + 11) & 255) }
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(width) + be32(height) + [1, 3, 0, 0, 0])
                + chunk("PLTE", [200, 120, 40]) + chunk("IDAT", garbage) + chunk("IEND", []))
}

/// A JPEG whose scan data stops half-way, closed with an end-of-image marker so that its headers
/// and its end look whole.
func truncatedJPEG(width: Int, height: Int) throws -> Data {
    let whole = try TestImages.gradientJPEG(width: width, height: height)
    return whole.prefix(whole.count / 2) + Data([0xFF, 0xD9])
}

/// A server answer carrying these bytes as the picture.
func pictureAnswer(_ data: Data) -> [String: Any] { ["kind": "bytes", "b64": data.base64EncodedString()] }

/// An `illustrate` run of a book against the loopback provider, three at a time, in a process of
/// its own: its stderr collected in `lines`, its journal read as it goes. For the tests that stop
/// a run while the provider holds calls (`hold_after`).
final class HeldRun: @unchecked Sendable {
    let process = Process()
    let lines = Lines()
    let journal: URL
    private var reader: Thread?

    /// `stdout`: a pipe the test reads (and may close); else the run's stdout is discarded.
    init(_ book: URL, server: ProviderServer, _ arguments: [String], environment: [String: String], stdout: Pipe? = nil) throws {
        journal = book.deletingLastPathComponent().appendingPathComponent("book.illustrate.json")
        process.executableURL = try Repository.binary
        process.arguments = ["illustrate", book.path, "--provider", "openai", "--base-url", server.baseURL, "--concurrency", "3"] + arguments
        process.environment = environment
        process.standardOutput = stdout ?? FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let lines = self.lines
        reader = Thread {
            while case let data = stderr.fileHandleForReading.availableData, !data.isEmpty { lines.add(String(decoding: data, as: UTF8.self)) }
        }
        reader?.start()
    }

    /// Each page's state in the journal now; empty before it is first written.
    func states() -> [String: JournalEntry.State] {
        guard let data = try? Data(contentsOf: journal), let file = try? JSONDecoder().decode(JournalFile.self, from: data) else { return [:] }
        return file.pages.mapValues(\.state)
    }

    /// Two answered and kept, three held by the provider.
    func isHeld() -> Bool {
        let s = Array(states().values)
        return s.filter { $0 == .ready }.count == 2 && s.filter { $0 == .generating }.count == 3
    }

    /// Once the process has ended: until all it wrote to stderr is in `lines`.
    func waitForStderr() { while reader?.isFinished == false { usleep(10_000) } }

    /// Kills a run the test left going.
    func end() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}
