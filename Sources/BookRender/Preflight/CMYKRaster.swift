import Foundation
import BookBase

/// A page as Ghostscript draws it in CMYK (its `pam` device, one byte per ink, 0 none and 255
/// full), the whole MediaBox at `dpi`: the inks a press would lay down. A file's DeviceCMYK values
/// reach the pixels as they are (page and device share Ghostscript's default CMYK profile); RGB is
/// separated by that profile, as a printer's RIP would.
struct CMYKRaster {
    var width: Int
    var height: Int
    var pixels: [UInt8]
    var dpi: Double

    /// The four inks of a pixel, and their sum (0…1020).
    func inks(_ x: Int, _ y: Int) -> (c: Int, m: Int, y: Int, k: Int) {
        let i = (y * width + x) * 4
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]), Int(pixels[i + 3]))
    }

    func total(_ x: Int, _ y: Int) -> Int {
        let i = (y * width + x) * 4
        return Int(pixels[i]) + Int(pixels[i + 1]) + Int(pixels[i + 2]) + Int(pixels[i + 3])
    }

    /// Some ink: any of the four at 5 % or more.
    func inked(_ x: Int, _ y: Int) -> Bool {
        let i = (y * width + x) * 4
        return pixels[i] >= 13 || pixels[i + 1] >= 13 || pixels[i + 2] >= 13 || pixels[i + 3] >= 13
    }

    /// How far two pixels' inks are apart, summed over the four (0…1020).
    func distance(_ a: (Int, Int), _ b: (Int, Int)) -> Int {
        let i = (a.1 * width + a.0) * 4, j = (b.1 * width + b.0) * 4
        return (0..<4).reduce(0) { $0 + abs(Int(pixels[i + $1]) - Int(pixels[j + $1])) }
    }

    func same(_ x: Int, _ y: Int, as other: CMYKRaster) -> Bool {
        let i = (y * width + x) * 4
        return pixels[i] == other.pixels[i] && pixels[i + 1] == other.pixels[i + 1]
            && pixels[i + 2] == other.pixels[i + 2] && pixels[i + 3] == other.pixels[i + 3]
    }

    func contains(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// Every page of `pdf` (`count` of them) drawn at `dpi`, and with `withoutText` drawn a second
    /// time with its text left out (`-dFILTERTEXT`): where the two differ is where text leaves ink,
    /// whatever its colour and whatever lies under it. `body` gets each page in turn (page number
    /// from 1). Ghostscript draws a stretch of pages at a time, so a long book never lies on disk
    /// or in memory whole.
    static func pages(_ pdf: URL, count: Int, dpi: Int, withoutText: Bool, _ body: (Int, CMYKRaster, CMYKRaster?) throws -> Void) throws {
        let stretch = 32
        guard count > 0 else { return }
        for first in stride(from: 1, through: count, by: stretch) {
            let last = min(count, first + stretch - 1)
            try TemporaryFiles.withScratchFolder("raster") { folder in
                let runs = withoutText ? [false, true] : [false]
                let results = ResultList(count: runs.count)
                DispatchQueue.concurrentPerform(iterations: runs.count) { i in
                    let prefix = runs[i] ? "t" : "p"
                    results.set(i, Result {
                        _ = try ReaderTool.run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=pam", "-r\(dpi)",
                                                      "-dFirstPage=\(first)", "-dLastPage=\(last)"]
                                                + (runs[i] ? ["-dFILTERTEXT"] : [])
                                                + ["-o", folder.appendingPathComponent("\(prefix)-%05d.pam").path, pdf.path])
                    })
                }
                try results.check()
                for index in 1...(last - first + 1) {
                    let file = folder.appendingPathComponent(String(format: "p-%05d.pam", index))
                    guard FileManager.default.fileExists(atPath: file.path) else { break }
                    let full = try read(file, dpi: Double(dpi))
                    let bare = withoutText ? try read(folder.appendingPathComponent(String(format: "t-%05d.pam", index)), dpi: Double(dpi)) : nil
                    try body(first + index - 1, full, bare?.width == full.width && bare?.height == full.height ? bare : nil)
                }
            }
        }
    }

    /// A PAM file as Ghostscript writes it: `P7`, WIDTH, HEIGHT, DEPTH 4, MAXVAL 255, ENDHDR.
    static func read(_ file: URL, dpi: Double) throws -> CMYKRaster {
        let data = try Data(contentsOf: file)
        guard let end = data.range(of: Data("ENDHDR\n".utf8)) else { throw RenderError("\(file.lastPathComponent): not a PAM file") }
        var fields: [String: Int] = [:]
        for line in String(decoding: data[..<end.lowerBound], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let v = Int(parts[1]) { fields[String(parts[0])] = v }
        }
        guard let w = fields["WIDTH"], let h = fields["HEIGHT"], fields["DEPTH"] == 4, fields["MAXVAL"] == 255,
              data.count - end.upperBound >= w * h * 4 else {
            throw RenderError("\(file.lastPathComponent): not an 8-bit CMYK PAM file")
        }
        return CMYKRaster(width: w, height: h, pixels: [UInt8](data[end.upperBound..<(end.upperBound + w * h * 4)]), dpi: dpi)
    }
}

/// The outcome of each of a few jobs run at once.
private final class ResultList: @unchecked Sendable {
    private var results: [Result<Void, any Error>]
    private let lock = NSLock()

    init(count: Int) { results = Array(repeating: .success(()), count: count) }

    func set(_ i: Int, _ r: Result<Void, any Error>) { lock.lock(); results[i] = r; lock.unlock() }

    func check() throws { for r in results { try r.get() } }
}
