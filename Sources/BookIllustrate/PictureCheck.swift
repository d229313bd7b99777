import Foundation
import BookModel
import BookResolve

/// Whether bytes a provider sent (or a run kept: the cache, a journal's picture) are a picture the
/// book can use: decoded whole, every row, as an export decodes it (a sound signature, header and
/// end say nothing of the data between them, and a picture only the export finds broken has
/// already been paid for, placed in the book and cached), and large enough for its place.
enum PictureCheck {
    /// The picture's header once it has decoded whole and is large enough for the request's place;
    /// otherwise why it cannot be used.
    static func check(_ data: Data, for request: GenerationRequest) -> Result<ImageInfo, PictureProblem> {
        let info: ImageInfo
        do {
            info = try ImageProbe.probe(data)
            try ImageCheck.dimensions(info, maxPixels: InputLimits.defaultMaxImagePixels)
            try ImageCheck.data(data, info: info)
        } catch {
            return .failure(PictureProblem(error.description))
        }
        if let place = request.job.place {
            let least = place.minimumPixels(request.resolution)
            if info.orientedWidth < least.width || info.orientedHeight < least.height {
                return .failure(PictureProblem("it is \(info.orientedWidth) × \(info.orientedHeight) px; \(request.job.label) needs at least "
                    + "\(least.width) × \(least.height) px (\(Int(PicturePlace.minimumPPI(request.resolution))) ppi over its "
                    + "\(place.inches) at \(request.resolution.rawValue))"))
            }
        }
        return .success(info)
    }

    /// The same for a file; nil when it can be used.
    static func problem(file: URL, for request: GenerationRequest) -> PictureProblem? {
        guard let data = try? Data(contentsOf: file) else { return PictureProblem("it cannot be read") }
        if case .failure(let problem) = check(data, for: request) { return problem }
        return nil
    }

    /// How far a picture's shape may stray from the one asked for, either way, before it is named.
    static let shapeTolerance = 1.1

    /// A note when the picture's shape is noticeably not the one asked for: it is used, but will not
    /// fill its place as planned.
    static func shapeNote(_ info: ImageInfo, asked: AskedShape) -> String? {
        let got = Double(info.orientedWidth) / Double(info.orientedHeight)
        guard abs(log(got / asked.ratio)) > log(shapeTolerance) else { return nil }
        return "the picture is \(info.orientedWidth) × \(info.orientedHeight) px (\(ratio(got))), not the \(asked.name) (\(ratio(asked.ratio))) "
            + "asked for; it is used, cropped or letterboxed to its place"
    }

    /// "0.67:1".
    static func ratio(_ value: Double) -> String { String(format: "%.2f:1", value) }
}

/// Why a picture cannot be used.
struct PictureProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
