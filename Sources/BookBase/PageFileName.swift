/// The names of page images, shared by the PNG writer and by `compare`, which pairs pages by them.
public enum PageFileName {
    /// `page-007.png`: physical page numbers from 1, three digits at least so folders sort in page order.
    public static func page(_ number: Int) -> String { "page-" + padded(number) + ".png" }

    /// `spread-001.png` for page 1 alone, `spread-002-003.png` for a facing pair.
    public static func spread(_ pages: [Int]) -> String {
        "spread-" + pages.map(padded).joined(separator: "-") + ".png"
    }

    /// The physical page number of a `page-NNN.png` name, nil for any other name.
    public static func pageNumber(of name: String) -> Int? {
        guard name.hasPrefix("page-"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst(5).dropLast(4)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return Int(digits)
    }

    /// The physical pages a `spread-NNN[-NNN].png` name shows, nil for any other name.
    public static func spreadPages(of name: String) -> [Int]? {
        guard name.hasPrefix("spread-"), name.hasSuffix(".png") else { return nil }
        let numbers = name.dropFirst(7).dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(numbers.count),
              numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }) else { return nil }
        return numbers.compactMap { Int($0) }
    }

    /// The pages a page or spread file shows, nil for a file bookrender did not name: the files
    /// a PNG export replaces, and the only ones it removes.
    public static func pagesShown(by name: String) -> [Int]? {
        pageNumber(of: name).map { [$0] } ?? spreadPages(of: name)
    }

    private static func padded(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 3 ? s : String(repeating: "0", count: 3 - s.count) + s
    }
}
