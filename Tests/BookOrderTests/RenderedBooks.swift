import Foundation
import BookTestSupport

/// The printable storybook and memoir with their interiors and covers rendered for Lulu, once for
/// all the tests that order them.
enum RenderedBooks {
    struct Rendered: Sendable {
        var book: URL
        var interior: URL
        var covers: [String: URL]
    }

    static let storybook: Result<Rendered, ToolError> = make("storybook", bindings: ["paperback", "hardcover"])
    static let memoir: Result<Rendered, ToolError> = make("memoir", bindings: ["paperback"])

    static func make(_ name: String, bindings: [String]) -> Result<Rendered, ToolError> {
        Result {
            let folder = try temporaryDirectory("printable-\(name)")
            let url = try PrintableBooks.make(name, in: folder)
            let interior = folder.appendingPathComponent("\(name)-interior.pdf")
            let binary = try Repository.binary.path
            let r = try run(binary, ["export", url.path, "-o", interior.path, "--profile", "lulu", "-q"])
            guard r.status == 0 else { throw ToolError("export \(name): \(r.stderr)") }
            var covers: [String: URL] = [:]
            for binding in bindings {
                let cover = folder.appendingPathComponent("\(name)-cover-\(binding).pdf")
                let c = try run(binary, ["cover", url.path, "-o", cover.path, "--profile", "lulu", "--binding", binding])
                guard c.status == 0 else { throw ToolError("cover \(name) \(binding): \(c.stderr)") }
                covers[binding] = cover
            }
            return Rendered(book: url, interior: interior, covers: covers)
        }.mapError { $0 as? ToolError ?? ToolError("\($0)") }
    }
}
