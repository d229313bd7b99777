import Foundation

/// One case of the golden suite: `Tests/Goldens/<feature>/<case>/` with its input book (book.json or
/// an app's file) and `expected/page-NNN.png`, the reference pages. The suite and the tests that
/// borrow its books find the cases in the folders; nothing lists them by name.
public struct GoldenCase: CustomStringConvertible, Sendable {
    public let feature: String
    public let name: String
    public let folder: URL
    public let input: URL

    public var description: String { "\(feature)/\(name)" }
    public var expected: URL { folder.appendingPathComponent("expected") }
    /// Where a failing case leaves its expected | diff | actual images and reports.
    public var failureReport: URL { GoldenCase.failures.appendingPathComponent(feature).appendingPathComponent(name) }

    public static let root = Repository.root.appendingPathComponent("Tests/Goldens")
    public static let failures = Repository.root.appendingPathComponent("out/golden-failures")
    /// Low, to keep the references small; still enough to see any layout or colour change.
    public static let dpi = 30.0
    /// `BOOKRENDER_RECORD_GOLDENS=1 swift test --filter GoldenTests` re-records every reference.
    public static var recording: Bool { ProcessInfo.processInfo.environment["BOOKRENDER_RECORD_GOLDENS"] == "1" }

    /// Every folder two levels down: each must be a case.
    public static var all: [GoldenCase] { found.cases }

    /// Case folders that are not cases (no input, or more than one `.json` file to choose from),
    /// as "<feature>/<case>: why"; a case must never be skipped unseen.
    public static var malformed: [String] { found.malformed }

    /// The feature folders (every folder directly under `root`).
    public static var features: [String] { found.features }

    private static let found: (cases: [GoldenCase], malformed: [String], features: [String]) = {
        var cases: [GoldenCase] = [], malformed: [String] = []
        let features = folders(in: root)
        for feature in features {
            for name in folders(in: root.appendingPathComponent(feature)) {
                let folder = root.appendingPathComponent(feature).appendingPathComponent(name)
                let jsons = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
                guard jsons.count == 1 else {
                    malformed.append("\(feature)/\(name): \(jsons.count) .json files, a case has exactly one")
                    continue
                }
                cases.append(GoldenCase(feature: feature, name: name, folder: folder, input: folder.appendingPathComponent(jsons[0])))
            }
        }
        return (cases, malformed, features)
    }()

    /// The sub-folders of `url`, sorted, hidden ones left out.
    private static func folders(in url: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }
}
