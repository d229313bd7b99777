import Foundation

/// The font files an e-book's text is set in, by the name its style sheet gives each. A file is
/// embedded whole when it is a single OpenType or TrueType font whose licence bits allow it (every
/// face of the font set does: all are under the SIL Open Font License); a collection (.ttc, the CJK
/// faces) cannot go into an EPUB, and a colour emoji font is left to the reader's own, which every
/// reading system has.
struct EPUBFonts {
    struct Face {
        /// The style sheet's family name and the file's name inside the book (`f1.otf`).
        var family: String
        var entry: String?
        var mediaType: String?
        var facts: FontFileFacts
        var file: String
    }

    private(set) var faces: [Face] = []
    private var byFile: [String: Int] = [:]
    private(set) var notEmbedded: [(file: String, reason: String)] = []
    /// Larger than any text face of the set; only a colour emoji font comes near.
    static let largest = 8 << 20

    /// The face for `file` (nil: the reader's serif), added on first use.
    mutating func face(for file: String?) -> Face? {
        guard let file else { return nil }
        if let i = byFile[file] { return faces[i] }
        let facts = FontFileFacts.read(file)
        var face = Face(family: "f\(faces.count + 1)", entry: nil, mediaType: nil, facts: facts ?? .typical, file: file)
        var info = stat()
        let size = stat(file, &info) == 0 ? Int(info.st_size) : 0
        let reason: String?
        if facts == nil {
            reason = "not an OpenType or TrueType file"
        } else if facts!.isCollection {
            reason = "a font collection (.ttc), which an EPUB cannot carry"
        } else if facts!.embeddingForbidden {
            reason = "its licence bits (OS/2 fsType) forbid embedding"
        } else if size > Self.largest {
            reason = "\(size >> 20) MiB, a colour emoji font every reading system has its own of"
        } else {
            reason = nil
        }
        if let reason {
            // The font set is read through links in a cache folder; the message names the font's own file.
            notEmbedded.append((URL(fileURLWithPath: file).resolvingSymlinksInPath().path, reason))
        } else {
            face.entry = face.family + (facts!.isCFF ? ".otf" : ".ttf")
            face.mediaType = facts!.isCFF ? "font/otf" : "font/ttf"
        }
        byFile[file] = faces.count
        faces.append(face)
        return face
    }

    var embedded: [Face] { faces.filter { $0.entry != nil } }

    /// The `@font-face` rules of the embedded faces.
    var css: String {
        embedded.map { "@font-face { font-family: \"\($0.family)\"; src: url(\"../fonts/\($0.entry!)\"); }\n" }.joined()
    }
}
