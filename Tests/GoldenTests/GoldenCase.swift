import Foundation
import BookTestSupport

/// One case of the golden suite: `Tests/Goldens/<feature>/<case>/` with its input book (book.json or
/// an app's file) and `expected/page-NNN.png`, the reference pages.
struct GoldenCase: CustomStringConvertible, Sendable {
    let feature: String
    let name: String
    let folder: URL
    let input: URL

    var description: String { "\(feature)/\(name)" }
    var expected: URL { folder.appendingPathComponent("expected") }
    /// Where a failing case leaves its expected | diff | actual images and reports.
    var failureReport: URL { GoldenCase.failures.appendingPathComponent(feature).appendingPathComponent(name) }

    static let root = Repository.root.appendingPathComponent("Tests/Goldens")
    static let failures = Repository.root.appendingPathComponent("out/golden-failures")
    /// Low, to keep the references small; still enough to see any layout or colour change.
    static let dpi = 30.0
    /// `BOOKRENDER_RECORD_GOLDENS=1 swift test --filter GoldenTests` re-records every reference.
    static var recording: Bool { ProcessInfo.processInfo.environment["BOOKRENDER_RECORD_GOLDENS"] == "1" }

    static let all: [GoldenCase] = {
        let fm = FileManager.default
        var cases: [GoldenCase] = []
        for feature in ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let featureURL = root.appendingPathComponent(feature)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: featureURL.path, isDirectory: &isDir), isDir.boolValue else { continue }
            for name in ((try? fm.contentsOfDirectory(atPath: featureURL.path)) ?? []).sorted() {
                let folder = featureURL.appendingPathComponent(name)
                let jsons = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
                guard let input = jsons.contains("book.json") ? "book.json" : jsons.first else { continue }
                cases.append(GoldenCase(feature: feature, name: name, folder: folder, input: folder.appendingPathComponent(input)))
            }
        }
        return cases
    }()
}
