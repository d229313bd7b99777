import Foundation

/// Decodes a book.json and, when that fails, reports every decoding problem it can find rather than
/// the first: `JSONDecoder` stops at one, and a file with five bad pages should not take five runs to fix.
enum BookDecoding {
    static func decode(_ data: Data, document: JSONDocument, file: String) throws(BookError) -> Book {
        do {
            return try JSONDecoder().decode(Book.self, from: data)
        } catch let first as DecodingError {
            var problems = (try? JSONDecoder().decode(BookSurvey.self, from: data))?.problems ?? []
            if problems.isEmpty { problems = [first] }
            let issues = problems.map { DecodingProblem($0, in: document) }
                .sorted { $0.offset < $1.offset }
                .map(\.issue)
            throw BookError(kind: .schema, file: file, issues: deduplicated(issues))
        } catch {
            throw BookError(kind: .schema, file: file, message: "\(error)")
        }
    }

    private static func deduplicated(_ issues: [BookIssue]) -> [BookIssue] {
        var seen = Set<String>()
        return issues.filter { seen.insert($0.description).inserted }
    }
}

/// Decodes each top-level field and each page on its own, keeping every error. Only run after the
/// real decoding failed; if the model grows a field this does not probe, that decoding's own error
/// is still reported.
private struct BookSurvey: Decodable {
    var problems: [DecodingError] = []

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PlainKey.self)

        func required<T: Decodable>(_: T.Type, _ key: String) {
            do { _ = try c.decode(T.self, forKey: PlainKey(key)) } catch let e as DecodingError { problems.append(e) } catch {}
        }
        func optional<T: Decodable>(_: T.Type, _ key: String) {
            do { _ = try c.decodeIfPresent(T.self, forKey: PlainKey(key)) } catch let e as DecodingError { problems.append(e) } catch {}
        }

        required(Int.self, "schema")
        required(BookKind.self, "kind")
        required(String.self, "title")
        for key in ["subtitle", "author", "language", "artStyle", "created", "theme"] { optional(String.self, key) }
        optional(JSONValue.self, "tokens")
        optional(BookFormat.self, "format")
        optional(Cover.self, "cover")
        optional(Characters.self, "characters")
        optional(Narration.self, "narration")

        let pagesKey = PlainKey("pages")
        guard c.contains(pagesKey) else { required([Page].self, "pages"); return }
        do {
            var pages = try c.nestedUnkeyedContainer(forKey: pagesKey)
            while !pages.isAtEnd {
                if let problem = try pages.decode(Attempt<Page>.self).problem { problems.append(problem) }
            }
        } catch let e as DecodingError {
            problems.append(e)
        }
    }
}

/// Decodes a value without throwing, so a failing array element does not stop the walk over the array.
private struct Attempt<T: Decodable>: Decodable {
    var problem: DecodingError?

    init(from decoder: any Decoder) throws {
        do { _ = try T(from: decoder) } catch let e as DecodingError { problem = e }
    }
}
