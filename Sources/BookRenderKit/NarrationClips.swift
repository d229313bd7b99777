import Foundation
import BookBase
import BookModel
import BookRender

extension BookDocument {
    /// The narration's clips, each file opened and measured: a recording that is missing, that
    /// cannot be read, that is no MP3 or M4A, or that ends before a page's start is an error naming
    /// it and the field that gives it.
    func narrationClips() throws(BookRenderError) -> [NarrationClip] {
        guard let narration = book.narration else { return [] }
        var lengths: [String: Double] = [:]
        func length(_ name: String, _ field: String) throws(BookRenderError) -> (URL, String, Double) {
            let url = folder.appendingPathComponent(name)
            let ext = url.pathExtension.lowercased()
            guard let mediaType = Narration.mediaTypes[ext] else {
                throw BookRenderError(.invalidBook, "\(field): \(name) is not an MP3 or M4A file (by its name)")
            }
            if let known = lengths[name] { return (url, mediaType, known) }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                throw BookRenderError(.unreadableInput, "\(field): the narration \(url.path) does not exist; put the recording there, or take it out of \"narration\"")
            }
            let data: Data
            do {
                guard !isFolder.boolValue else { throw OutputError("it is a folder") }
                data = try Data(contentsOf: url)
            } catch {
                throw BookRenderError(.unreadableInput, "\(field): cannot read the narration \(url.path): \(AtomicOutput.reason(error))")
            }
            do {
                let seconds = try AudioDuration.seconds(of: data, format: ext)
                lengths[name] = seconds
                return (url, mediaType, seconds)
            } catch {
                throw BookRenderError(.invalidBook, "\(field): the narration \(url.path) \(error.description)")
            }
        }
        var clips: [NarrationClip] = []
        if let audio = narration.audio {
            let (url, mediaType, seconds) = try length(audio, "narration.audio")
            for (i, entry) in narration.pages.enumerated() {
                let start = entry.start ?? 0
                // The starts rise (the loader sees to it): the first past the end is the one named.
                let end = i + 1 < narration.pages.count ? narration.pages[i + 1].start ?? seconds : seconds
                guard start < seconds else {
                    throw BookRenderError(.invalidBook, String(format: "narration.pages[%d].start: the narration %@ plays %.2f s, shorter than its timings (page %d starts at %g s)",
                                                               i, url.path, seconds, entry.page, start))
                }
                clips.append(NarrationClip(sourcePage: entry.page - 1, file: url, mediaType: mediaType, begin: start, end: min(end, seconds)))
            }
        } else {
            for (i, entry) in narration.pages.enumerated() {
                guard let name = entry.audio else { continue }
                let (url, mediaType, seconds) = try length(name, "narration.pages[\(i)].audio")
                clips.append(NarrationClip(sourcePage: entry.page - 1, file: url, mediaType: mediaType, begin: 0, end: seconds))
            }
        }
        return clips
    }

    /// The recordings the clips read, each once, as the PDF's attachments.
    static func attachments(_ clips: [NarrationClip]) -> [PDFAttachment] {
        var seen = Set<URL>()
        var out: [PDFAttachment] = []
        for clip in clips where seen.insert(clip.file).inserted {
            let pages = Set(clips.filter { $0.file == clip.file }.map(\.sourcePage))
            let description = pages.count == 1 ? "Narration of the story's page \(pages.first! + 1)"
                                               : "Narration of the book"
            out.append(PDFAttachment(name: clip.file.lastPathComponent, file: clip.file, mediaType: clip.mediaType,
                                     description: description))
        }
        return out
    }
}
