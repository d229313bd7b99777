import Foundation

/// A recording of the book read aloud: one audio file for the whole book with the time each page's
/// text starts in it, or one audio file per page. `page` counts the entries of the book's `pages`
/// from 1, so a page that is laid out over several printed pages is one entry here.
public struct Narration: Codable, Sendable, Equatable {
    /// The book's one recording (MP3 or M4A), relative to the book's folder; nil when every entry
    /// names its own file.
    public var audio: String?
    public var pages: [NarratedPage]

    public init(audio: String? = nil, pages: [NarratedPage]) { self.audio = audio; self.pages = pages }

    /// Every audio file named, in the order first named.
    public var files: [String] {
        var seen = Set<String>()
        return ([audio] + pages.map(\.audio)).compactMap { $0 }.filter { seen.insert($0).inserted }
    }

    /// The formats the apps save, by file name extension, with their media types.
    public static let mediaTypes: [String: String] = ["mp3": "audio/mpeg", "m4a": "audio/mp4"]
}

public struct NarratedPage: Codable, Sendable, Equatable {
    /// 1 for the first entry of `pages`.
    public var page: Int
    /// Seconds into the book's recording where this page's text starts (with `Narration.audio`).
    public var start: Double?
    /// This page's own recording, read from its start to its end.
    public var audio: String?

    public init(page: Int, start: Double? = nil, audio: String? = nil) {
        self.page = page; self.start = start; self.audio = audio
    }
}

extension BookValidator {
    /// The narration's own rules; whether its files exist, are readable and are long enough is
    /// checked by what plays them (the e-book's export), which opens them.
    static func checkNarration(_ narration: Narration?, pageCount: Int, _ path: PathBuilder, _ v: inout Checks) {
        guard let narration else { return }
        if narration.pages.isEmpty {
            v.error(path.key("pages"), "the narration names no page; give each narrated page as {\"page\": 1, \"start\": 0}")
        }
        var names: [(String, PathBuilder)] = []
        if let audio = narration.audio { names.append((audio, path.key("audio"))) }
        var previous: (page: Int, start: Double?)?
        for (i, entry) in narration.pages.enumerated() {
            let here = path.key("pages").index(i)
            if entry.page < 1 || entry.page > pageCount {
                v.error(here.key("page"), "page \(entry.page) is not in the book: pages are counted from 1 in \"pages\", which has \(pageCount)")
            } else if let previous, entry.page <= previous.page {
                v.error(here.key("page"), "page \(entry.page) comes after page \(previous.page); list the narrated pages once each, in the book's order")
            }
            if narration.audio != nil {
                if entry.audio != nil {
                    v.error(here.key("audio"), "the narration has one recording for the book (\"audio\" beside \"pages\"); a page then gives only its \"start\"")
                }
                if let start = entry.start {
                    if !(start.isFinite && start >= 0) {
                        v.error(here.key("start"), "the start must be a number of seconds, 0 or more")
                    } else if let earlier = previous?.start, start <= earlier {
                        v.error(here.key("start"), "starts at \(Self.seconds(start)) s, not after the page before it (\(Self.seconds(earlier)) s); the pages are read in order")
                    }
                } else {
                    v.error(here, "needs \"start\": the seconds into \(narration.audio!) where this page's text begins")
                }
            } else if let audio = entry.audio {
                names.append((audio, here.key("audio")))
                if entry.start != nil {
                    v.error(here.key("start"), "a page with its own recording is read from its start; \"start\" is only for a book with one recording")
                }
            } else {
                v.error(here, "needs \"audio\": this page's recording (MP3 or M4A), or give the narration one \"audio\" for the whole book")
            }
            previous = (entry.page, entry.start ?? previous?.start)
        }
        for (name, at) in names {
            if let problem = ImagePath.problem(with: name) {
                v.error(at, audioWording(problem))
            } else if Narration.mediaTypes[(name as NSString).pathExtension.lowercased()] == nil {
                v.error(at, "\(name) is not an MP3 or M4A file (by its name); narration is read from .mp3 or .m4a")
            }
        }
    }

    /// The image path rule's message, said of an audio file.
    private static func audioWording(_ problem: String) -> String {
        [("an image path", "an audio path"), ("images are not downloaded", "audio is not downloaded"),
         ("images must be", "audio files must be"), ("images/page1.jpg", "audio/page-1.mp3")]
            .reduce(problem) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    private static func seconds(_ s: Double) -> String { String(format: "%g", s) }
}
