import Foundation
import BookBase
import BookRenderKit

/// Turns a request body into a book in the job's own folder.
///
/// Three forms are taken:
/// - `application/zip`: a zip of a book folder (book.json at its top, or in its one top folder);
/// - JSON: bookrender's book.json, whose image fields may hold `data:image/…;base64,…` URIs, which
///   are written out as files beside it; or an app's own saved file (MemoirAI, Roger,
///   InfiniteStories), which carries its pictures inside;
/// - JSON `{"book": …, "options": {…}}`: either of the above with the job's options beside it.
struct BookIntake {
    var zip: ZipIntake

    struct Received {
        var book: URL
        var options: ServeJobOptions?
    }

    func receive(_ body: Data, contentType: String?, into folder: URL) throws(APIError) -> Received {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw APIError(500, "storage", "cannot make the job's folder: \(error)")
        }
        if type == "application/zip" || type == "application/x-zip-compressed" {
            try zip.unpack(body, into: folder)
            return Received(book: try bookFile(in: folder), options: nil)
        }
        guard type.isEmpty || type == "application/json" || type.hasSuffix("+json") else {
            throw APIError(415, "unsupportedType", "Content-Type \(type) is not taken; send application/json (book.json or an app's file) or application/zip (a book folder)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: body), let top = object as? [String: Any] else {
            throw APIError(400, "invalidJSON", "the body is not a JSON object; send book.json, an app's saved file, or a zip with Content-Type: application/zip")
        }
        var options: ServeJobOptions?
        var book = top, raw: Data? = body
        if top["schema"] == nil, let inner = top["book"] as? [String: Any] {
            book = inner; raw = nil
            if let o = top["options"] {
                guard let data = try? JSONSerialization.data(withJSONObject: o),
                      let decoded = try? JSONDecoder().decode(ServeJobOptions.self, from: data) else {
                    throw APIError(400, "invalidOption", "$.options does not match the job options (schema/serve.openapi.yaml, JobOptions)")
                }
                options = decoded
            }
        }
        if book["schema"] != nil {
            var written = 0
            let replaced = try inlineImages(book, folder: folder, count: &written)
            let file = folder.appendingPathComponent("book.json")
            if written == 0, let raw { try write(raw, to: file) } else { try write(try serialized(replaced), to: file) }
            return Received(book: file, options: options)
        }
        // An app's file: the library tells which app by its keys when the book is opened.
        let file = folder.appendingPathComponent("story.json")
        if let raw { try write(raw, to: file) } else { try write(try serialized(book), to: file) }
        return Received(book: file, options: options)
    }

    private func bookFile(in folder: URL) throws(APIError) -> URL {
        let top = folder.appendingPathComponent("book.json")
        if FileManager.default.fileExists(atPath: top.path) { return top }
        let items = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        let folders = items.filter { $0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix("__MACOSX") }
        if folders.count == 1 {
            let inner = folders[0].appendingPathComponent("book.json")
            if FileManager.default.fileExists(atPath: inner.path) { return inner }
        }
        throw APIError(400, "noBook", "the zip has no book.json at its top or in its one top folder; zip the book's folder (book.json beside images/)")
    }

    /// Every `data:image/…;base64,` string becomes a file `inline/HASH.ext` beside the book.
    private func inlineImages(_ value: Any, folder: URL, count: inout Int) throws(APIError) -> Any {
        switch value {
        case let s as String where s.hasPrefix("data:"):
            guard let comma = s.firstIndex(of: ","), s[..<comma].hasSuffix(";base64") else {
                throw APIError(400, "invalidDataURI", "a data: URI in the book is not base64 (data:image/png;base64,…)")
            }
            let mime = s[s.index(s.startIndex, offsetBy: 5)..<comma].split(separator: ";").first.map(String.init) ?? ""
            let ext: String
            switch mime {
            case "image/png": ext = "png"
            case "image/jpeg", "image/jpg": ext = "jpg"
            default: throw APIError(400, "invalidDataURI", "a data: URI in the book holds \(mime.isEmpty ? "no type" : mime); pictures are image/png or image/jpeg")
            }
            guard let data = Data(base64Encoded: String(s[s.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                throw APIError(400, "invalidDataURI", "a data: URI in the book is not valid base64")
            }
            count += 1
            // Named by content, so the same book sent twice is the same folder.
            let name = "inline/\(String(BookBase.SHA256.hex(data).prefix(24))).\(ext)"
            try? FileManager.default.createDirectory(at: folder.appendingPathComponent("inline"), withIntermediateDirectories: true)
            try write(data, to: folder.appendingPathComponent(name))
            return name
        case let a as [Any]:
            var out: [Any] = []
            for v in a { out.append(try inlineImages(v, folder: folder, count: &count)) }
            return out
        case let d as [String: Any]:
            var out: [String: Any] = [:]
            for (k, v) in d { out[k] = try inlineImages(v, folder: folder, count: &count) }
            return out
        default:
            return value
        }
    }

    private func serialized(_ object: Any) throws(APIError) -> Data {
        do { return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) } catch {
            throw APIError(400, "invalidJSON", "the book cannot be written back as JSON: \(error)")
        }
    }

    private func write(_ data: Data, to url: URL) throws(APIError) {
        do { try data.write(to: url, options: .atomic) } catch {
            throw APIError(500, "storage", "cannot store the book: \(error)")
        }
    }
}
