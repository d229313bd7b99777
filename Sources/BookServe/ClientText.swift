import Foundation

/// What the service says to a client: no path of the server's disk and no advice for the command
/// line, which a client of the API has no use for (it has options, not flags).
enum ClientText {
    /// Text a client sent, put in a message: control characters shown as `?` and long text cut.
    static func clipped(_ text: some StringProtocol, to length: Int = 64) -> String {
        let shown = String(text.prefix(length).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        return text.count > length ? shown + "…" : shown
    }

    /// The export's flags a client sets as the API's options.
    private static let options = ["theme", "profile", "dpi", "strict", "force", "png"]

    /// Phrases of the export's messages that advise its command line, as the API words them.
    private static let phrases: [(String, String)] = [
        ("fix them, or pass --force to write the PDF anyway", "fix them, or set the force option to write the PDF anyway"),
        ("(--strict: add the images, or export without --strict to draw placeholders)",
         "(strict: add the images, or leave the strict option out to draw placeholders)"),
        ("make it writable, or pass --force to replace it", "the service cannot replace it"),
        (" (--no-reference makes it without)", ""),
        ("; check --base-url, the network or the proxy, then run again", "; the service could not reach the image provider, try again later"),
    ]

    private static let rules: [(NSRegularExpression, String)] = [
        // "…; run `bookrender export BOOK` alone to see why"
        (#";? ?run `bookrender[^`]*`[^;\n)]*"#, ""),
        // "or raise the limit with --max-image-pixels": a limit of the service, not the client's to raise.
        (#",? or raise the limit with (--max-[a-z-]+)"#, " (the service's $1)"),
        (#",? (?:or )?pass --no-reference to make the [a-z]+ without it"#, ""),
        // "--strict: …", "--profile: …" at the head of a message.
        (#"(^|\n|: )--(theme|profile|dpi|strict|force|png)\b:?"#, "$1$2:"),
        // Any other of the options' flags named on their own.
        (#"--(theme|profile|dpi|strict|force|png)\b"#, "the $1 option"),
        // What is left of flags is the service's to set, never the client's.
        (#"(?<![\w'-])(?<!service's )(?<!its )--([a-z][a-z-]*)"#, "the service's $1 setting"),
    ].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

    /// Absolute paths: a `/` that starts a word, up to a space, quote, bracket or punctuation; the
    /// API's own paths (`/v1/jobs/ID`, `/healthz`, `/metrics`) are not the disk's.
    private static let absolutePath = try! NSRegularExpression(pattern: #"(?<![\w.:/~-])/(?!v1\b|healthz\b|metrics\b)[^\s"'`()\[\]{},;]+"#)

    /// A message of the export (or of reading a book) as a client may read it: the job's paths
    /// made relative to its book, every other path of the server cut to its last name, and
    /// command-line advice worded as the API's options.
    static func forClient(_ message: String, job: JobFolder? = nil, dataFolder: URL? = nil) -> String {
        var text = message
        for (phrase, replacement) in phrases { text = text.replacingOccurrences(of: phrase, with: replacement) }
        if let job {
            for folder in [job.input.path, job.input.resolvingSymlinksInPath().path] {
                text = text.replacingOccurrences(of: folder + "/", with: "")
                text = text.replacingOccurrences(of: folder, with: "the book's folder")
            }
            for folder in [job.root.path, job.root.resolvingSymlinksInPath().path] {
                text = text.replacingOccurrences(of: folder + "/", with: "")
            }
        }
        if let dataFolder {
            text = text.replacingOccurrences(of: dataFolder.path + "/", with: "")
        }
        for (rule, template) in rules {
            text = rule.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
        }
        var out = ""
        var rest = text[...]
        for match in absolutePath.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            out += text[rest.startIndex..<range.lowerBound]
            let path = text[range].hasSuffix(".") || text[range].hasSuffix(":") ? text[range].dropLast() : text[range]
            out += path.split(separator: "/").last.map(String.init) ?? ""
            out += text[path.endIndex..<range.upperBound]
            rest = text[range.upperBound...]
        }
        return out + rest
    }
}
