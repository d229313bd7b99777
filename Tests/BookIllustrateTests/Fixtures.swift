import Foundation
import BookModel
@testable import BookIllustrate
import BookTestSupport

let testKey = "sk-test-SECRET-123"

/// An 8×8 PNG made by hand, so fixtures need no image tools.
func tinyPNG(_ seed: UInt8 = 7) -> Data {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c ^= UInt32(b); for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 } }
        return ~c
    }
    func adler(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }
    var raw: [UInt8] = []
    for _ in 0..<8 { raw.append(0); for _ in 0..<8 { raw += [seed, 255 &- seed, 128] } }
    // A stored (uncompressed) deflate block is valid zlib and needs no compressor.
    let n = UInt16(raw.count)
    let zlib: [UInt8] = [0x78, 0x01, 1, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8)] + raw + be32(adler(raw))
    let ihdr = be32(8) + be32(8) + [8, 2, 0, 0, 0]
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", []))
}

/// A storybook with a cover to make, a main character with a picture, two secondary characters and
/// `pages` illustration pages whose scenes carry a marker ("SCENE-03") the server can match.
func makeBook(pages: Int, in folder: URL, coverPhoto: Bool = false, characterImage: Bool = true) throws -> URL {
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
    try tinyPNG(200).write(to: folder.appendingPathComponent("images/hero.png"))
    if coverPhoto { try tinyPNG(90).write(to: folder.appendingPathComponent("images/child.png")) }
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
