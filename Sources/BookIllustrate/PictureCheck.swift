import Foundation
import BookModel
import BookResolve

/// Whether bytes a provider sent (or a run kept: the cache, a journal's picture) are a picture the
/// book can use. Decoded whole, every row, as an export decodes it: a sound signature, header and
/// end say nothing of the data between them, and a picture that only the export finds broken has
/// already been paid for, placed in the book and cached.
enum PictureCheck {
    /// Why the bytes are no usable picture; nil when they are one.
    static func problem(_ data: Data) -> String? {
        do {
            let info = try ImageProbe.probe(data)
            try ImageCheck.dimensions(info, maxPixels: InputLimits.defaultMaxImagePixels)
            try ImageCheck.data(data, info: info)
            return nil
        } catch {
            return error.description
        }
    }

    /// The same for a file; nil when it can be read and decoded whole.
    static func problem(file: URL) -> String? {
        guard let data = try? Data(contentsOf: file) else { return "it cannot be read" }
        return problem(data)
    }
}
