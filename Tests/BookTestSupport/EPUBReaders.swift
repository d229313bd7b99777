import Foundation

/// The e-book tests' readers: the reference checker (epubcheck, run from its jar, as Debian's
/// launcher needs the kernel's jar handler), unzip, and a headless Chromium as the reader engine.
public enum EPUBReaders {
    public static let epubcheckJar = "/usr/share/java/epubcheck.jar"

    /// epubcheck's messages (each line it prints that is an error, warning or fatal error), or its
    /// summary when it did not say what passed.
    public static func epubcheck(_ epub: URL) throws -> (passed: Bool, messages: [String]) {
        guard FileManager.default.fileExists(atPath: epubcheckJar) else {
            throw ToolError("epubcheck is not installed; run scripts/install-deps.sh")
        }
        // One short check: the JVM's quick compiler alone and one GC thread take a third of the
        // processor time its defaults do, for the same report.
        let r = try run("java", ["-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC",
                                 "-jar", epubcheckJar, "--quiet", epub.path])
        let lines = (r.stdout + r.stderr).split(separator: "\n").map(String.init)
        let messages = lines.filter { $0.hasPrefix("ERROR") || $0.hasPrefix("WARNING") || $0.hasPrefix("FATAL") || $0.hasPrefix("USAGE") }
        return (r.status == 0 && messages.isEmpty, messages.isEmpty ? lines : messages)
    }

    /// The EPUB unpacked into a new folder.
    public static func unpack(_ epub: URL) throws -> URL {
        let dir = try temporaryDirectory("epub")
        let r = try run("unzip", ["-q", epub.path, "-d", dir.path])
        guard r.status == 0 else { throw ToolError("unzip \(epub.path): \(r.stderr)") }
        return dir
    }

    /// A content document drawn by Chromium's engine at its fixed-layout viewport, as a PNG.
    public static func screenshot(_ xhtml: URL, width: Int, height: Int, to png: URL) throws {
        let profile = try temporaryDirectory("chromium")
        defer { try? FileManager.default.removeItem(at: profile) }
        let r = try run("chromium", ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                                     "--user-data-dir=\(profile.path)", "--force-device-scale-factor=1",
                                     // Fonts and pictures load before the shot, however busy the machine.
                                     "--run-all-compositor-stages-before-draw", "--virtual-time-budget=30000",
                                     "--window-size=\(width),\(height)", "--screenshot=\(png.path)", xhtml.absoluteString], timeout: 120)
        guard r.status == 0, FileManager.default.fileExists(atPath: png.path) else {
            throw ToolError("chromium could not draw \(xhtml.lastPathComponent): \(r.stderr.suffix(600))")
        }
    }

    /// The text of an XHTML document as a reader finds it: tags dropped, entities read, runs of
    /// white space made one space.
    public static func text(ofXHTML data: Data) -> String {
        var s = String(decoding: data, as: UTF8.self)
        if let body = s.range(of: "<body") { s = String(s[body.lowerBound...]) }
        s = s.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for (entity, char) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")] {
            s = s.replacingOccurrences(of: entity, with: char)
        }
        return s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
