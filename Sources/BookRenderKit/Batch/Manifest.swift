import Foundation
import BookModel

/// Reads the list of jobs: a JSON Lines manifest, or a folder of books.
public enum Manifest {
    private struct Line: Decodable {
        var input: String
        var output: String
        var profile: String?
        var options: JobOptions?
    }

    /// The keys a job line and its options take: any other would be ignored by decoding, and a
    /// mistyped one ("prfile") would render a book without what it asked for.
    static let lineKeys = ["input", "output", "profile", "options"]
    static let optionKeys = ["theme", "strict", "force", "png", "dpi", "spreads", "pages"]

    /// One JSON object per line: `{"input": "a/book.json", "output": "out/a.pdf", "profile": "kdp",
    /// "options": {"theme": "memoir", "png": "out/a-pages", "dpi": 150}}`. Blank lines and lines
    /// starting with `#` are skipped. Relative paths are taken from the manifest's folder, so a
    /// manifest means the same thing from whatever directory the batch is started.
    public static func read(jsonLines url: URL) throws -> [BatchJob] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BatchError("cannot read the manifest \(url.path): \(error.localizedDescription)")
        }
        let base = url.deletingLastPathComponent()
        var jobs: [BatchJob] = []
        let decoder = JSONDecoder()
        for (n, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            try refuseUnknownKeys(Data(text.utf8), at: "\(url.lastPathComponent):\(n + 1)")
            let line: Line
            do { line = try decoder.decode(Line.self, from: Data(text.utf8)) } catch {
                throw BatchError("\(url.lastPathComponent):\(n + 1): not a job (\"input\" and \"output\" are required): \(describe(error))")
            }
            var options = line.options ?? JobOptions()
            if let png = options.png { options.png = absolute(png, base) }
            jobs.append(BatchJob(id: "line \(n + 1)", index: jobs.count, input: absolute(line.input, base),
                                 output: absolute(line.output, base), profile: line.profile, options: options))
        }
        try refuseSharedOutputs(jobs)
        return jobs
    }

    /// Every book in `folder`: each `*.json` file directly in it and each sub-folder holding a
    /// `book.json`, in name order; each PDF is named after its book and written to `outputFolder`.
    public static func read(folder: URL, outputFolder: URL, profile: String?, options: JobOptions) throws -> [BatchJob] {
        let fm = FileManager.default
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: folder.path).sorted() } catch {
            throw BatchError("cannot list the folder \(folder.path): \(error.localizedDescription)")
        }
        var jobs: [BatchJob] = []
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else { continue }
            let input: URL, stem: String
            if isDir.boolValue {
                input = url.appendingPathComponent("book.json")
                guard fm.fileExists(atPath: input.path) else { continue }
                stem = name
            } else if name.hasSuffix(".json") {
                input = url
                stem = String(name.dropLast(5))
            } else { continue }
            var o = options
            if options.png != nil { o.png = outputFolder.appendingPathComponent(stem + "-pages").path }
            jobs.append(BatchJob(id: isDir.boolValue ? name + "/book.json" : name, index: jobs.count, input: input.path,
                                 output: outputFolder.appendingPathComponent(stem + ".pdf").path, profile: profile, options: o))
        }
        try refuseSharedOutputs(jobs)
        return jobs
    }

    /// A line's keys (and its options' keys) that do nothing are a usage error naming the line and
    /// the key, with the key it most likely meant. A line that is no JSON object is left to decoding.
    static func refuseUnknownKeys(_ data: Data, at place: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        func check(_ keys: [String], known: [String], prefix: String, what: String) throws {
            for key in keys.sorted() where !known.contains(key) {
                var message = "\(place): unknown key \"\(prefix)\(key)\""
                if let near = Spelling.nearest(to: key, among: known) { message += " (did you mean \"\(prefix)\(near)\"?)" }
                message += "; \(what) takes \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
                throw BatchError(message, usage: true)
            }
        }
        try check(Array(object.keys), known: lineKeys, prefix: "", what: "a job")
        if let options = object["options"] as? [String: Any] {
            try check(Array(options.keys), known: optionKeys, prefix: "options.", what: "\"options\"")
        }
    }

    /// Two jobs writing one PDF or one PNG folder would overwrite each other, and the second
    /// would be skipped as up to date on the next run.
    static func refuseSharedOutputs(_ jobs: [BatchJob]) throws {
        var writers: [String: [BatchJob]] = [:]
        for job in jobs {
            for output in [job.output] + (job.options.png.map { [$0] } ?? []) {
                writers[URL(fileURLWithPath: output).standardizedFileURL.path, default: []].append(job)
            }
        }
        if let clash = writers.filter({ $0.value.count > 1 }).min(by: { $0.value[0].index < $1.value[0].index }) {
            throw BatchError("\(clash.value.map(\.id).joined(separator: " and ")) would both write \(clash.key); give each its own output")
        }
    }

    static func absolute(_ path: String, _ base: URL) -> String {
        path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            "\"\(c.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case DecodingError.dataCorrupted(let c): c.debugDescription
        default: "\(error)"
        }
    }
}
