import Foundation

/// `--update`: makes EXPECTED hold what ACTUAL holds, page by page, for PNG files and folders.
public enum Rerecord {
    /// Copies every ACTUAL page that is not the same as its EXPECTED page over it (or beside the
    /// others, when EXPECTED lacks it), and deletes EXPECTED pages ACTUAL no longer has. Pages
    /// that are the same are left untouched. EXPECTED may not exist yet: it is then created.
    /// Each copy is written to a temporary file and renamed into place. Copies PNG bytes as they
    /// are, after checking that they decode.
    public static func update(expected: URL, actual: URL, report: CompareReport) throws(CompareError) -> [UpdateAction] {
        let actualSource = try PageSource.open(actual)
        guard actualSource.kind == .png || actualSource.kind == .folder else {
            throw CompareError(.invalidArgument, "--update re-records PNG files and folders only; ACTUAL is a \(actualSource.kind.rawValue)")
        }
        let expectedExists = FileManager.default.fileExists(atPath: expected.path)
        let expectedSource: PageSource? = expectedExists ? try PageSource.open(expected) : nil
        if let expectedSource, expectedSource.kind != actualSource.kind {
            throw CompareError(.invalidArgument, "--update needs EXPECTED and ACTUAL of one kind (both PNG files or both folders); "
                + "EXPECTED is a \(expectedSource.kind.rawValue), ACTUAL a \(actualSource.kind.rawValue)")
        }
        let same = Set(report.pages.filter { $0.status == .same }.map(\.name))
        var actions: [UpdateAction] = []
        if actualSource.kind == .png {
            let name = expectedSource?.names.first ?? expected.lastPathComponent
            if expectedSource == nil || !same.contains(name) {
                try copy(actualSource.file(of: actualSource.names[0])!, to: expected)
                actions.append(UpdateAction(page: name, action: expectedSource == nil ? .added : .replaced, path: expected.path))
            }
            return actions
        }
        if expectedSource == nil { try AtomicFile.makeDirectory(expected) }
        let existing = Set(expectedSource?.names ?? [])
        for name in actualSource.names where !same.contains(name) {
            let target = expectedSource?.file(of: name) ?? expected.appendingPathComponent(name)
            try copy(actualSource.file(of: name)!, to: target)
            actions.append(UpdateAction(page: name, action: existing.contains(name) ? .replaced : .added, path: target.path))
        }
        let kept = Set(actualSource.names)
        for name in expectedSource?.names ?? [] where !kept.contains(name) {
            guard let file = expectedSource?.file(of: name) else { continue }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw CompareError(.writeFailed, "cannot remove \(file.path): \(RGBAImage.reason(error))")
            }
            actions.append(UpdateAction(page: name, action: .removed, path: file.path))
        }
        return actions
    }

    private static func copy(_ source: URL, to target: URL) throws(CompareError) {
        let data: Data
        do {
            data = try Data(contentsOf: source)
        } catch {
            throw CompareError(.unreadable, "cannot read \(source.path): \(RGBAImage.reason(error))")
        }
        // A page that does not decode would make every later comparison fail; refuse to record it.
        _ = try RGBAImage(pngData: data, name: source.path)
        try AtomicFile.write(data, to: target)
    }
}
