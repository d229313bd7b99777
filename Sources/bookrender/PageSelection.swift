import ArgumentParser

/// `--pages 3-7`, `--pages 1,4-6`: physical page numbers, 1-based.
struct PageSelection: ExpressibleByArgument {
    var ranges: [ClosedRange<Int>]

    init?(argument: String) {
        var out: [ClosedRange<Int>] = []
        for part in argument.split(separator: ",") {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch ends.count {
            case 1: guard let a = ends[0], a >= 1 else { return nil }; out.append(a...a)
            case 2: guard let a = ends[0], let b = ends[1], a >= 1, b >= a else { return nil }; out.append(a...b)
            default: return nil
            }
        }
        guard !out.isEmpty else { return nil }
        ranges = out
    }
}
