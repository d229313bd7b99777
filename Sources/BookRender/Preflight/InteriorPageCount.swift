import BookConfig

/// The interior's page count against what the printer binds, the same for a page tree and a PDF.
/// A count the other binding would take says so, with the option that asks for it.
enum InteriorPageCount {
    static func findings(_ count: Int, profile: PrintProfile, binding: CoverBinding, file: String? = nil) -> [PreflightFinding] {
        let range: (min: Int?, max: Int?)
        do { range = try profile.interiorPages(bound: binding) } catch {
            return [PreflightFinding(.error, .pageCount, file: file, "\(error)")]
        }
        let bound = profile.casewrap == nil ? "" : " as a \(binding.rawValue)"
        var other = ""
        if let alternative = CoverBinding.allCases.first(where: { $0 != binding }),
           let range = try? profile.interiorPages(bound: alternative),
           range.min.map({ count >= $0 }) ?? true, range.max.map({ count <= $0 }) ?? true {
            other = "; it binds \(count) as a \(alternative.rawValue): --binding \(alternative.rawValue)"
        }
        if let min = range.min, count < min {
            return [PreflightFinding(.error, .pageCount, file: file, "\(count) pages; \(profile.name) prints at least \(min)\(bound)\(other)")]
        }
        if let max = range.max, count > max {
            return [PreflightFinding(.error, .pageCount, file: file, "\(count) pages; \(profile.name) prints at most \(max)\(bound)\(other)")]
        }
        return []
    }
}
