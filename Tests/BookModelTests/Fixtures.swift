import Foundation
import Testing
@testable import BookModel

/// Fixture files live beside the tests (not as package resources), found from this source file's path.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ relative: String) -> URL { folder.appendingPathComponent(relative) }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    static func load(_ relative: String) throws -> LoadedBook {
        try BookLoader.load(contentsOf: url(relative))
    }

    /// The error loading a fixture must throw (the test fails if it loads).
    static func error(_ relative: String) -> BookError? {
        loadError { try load(relative) }
    }

    static func files(in sub: String, named predicate: (URL) -> Bool = { $0.pathExtension == "json" }) -> [URL] {
        let items = (try? FileManager.default.contentsOfDirectory(at: url(sub), includingPropertiesForKeys: nil)) ?? []
        return items.filter(predicate).sorted { $0.path < $1.path }
    }
}

/// A fixture decoded with the app's own type and encoded again the way the app saves it
/// (`JSONEncoder()` with its defaults), loaded under the fixture's name: the importer must make
/// of it what it makes of the fixture.
func loadAsTheAppWritesIt<App: Codable>(_ relative: String, as type: App.Type) throws -> LoadedBook {
    let app = try JSONDecoder().decode(type, from: try Fixtures.data(relative))
    return try BookLoader.load(data: try JSONEncoder().encode(app), name: Fixtures.url(relative).path,
                               folder: Fixtures.url(relative).deletingLastPathComponent())
}

/// Loads a book from JSON text, named `book.json`, as a test's own small input.
func loadText(_ json: String, name: String = "book.json") throws -> LoadedBook {
    try BookLoader.load(data: Data(json.utf8), name: name, folder: URL(fileURLWithPath: "/tmp"))
}

func loadError(_ body: () throws -> LoadedBook) -> BookError? {
    do {
        let loaded = try body()
        Issue.record("expected an error, but the book loaded: \(loaded.book.title)")
        return nil
    } catch let error as BookError {
        return error
    } catch {
        Issue.record("expected a BookError, got \(error)")
        return nil
    }
}

/// A minimal valid book.json around the given pages (JSON text of the array's items).
func bookJSON(pages: String, extra: String = "") -> String {
    """
    {"schema": 1, "kind": "storybook", "title": "T",\(extra) "pages": [\(pages)]}
    """
}
