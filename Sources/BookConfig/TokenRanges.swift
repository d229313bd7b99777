import BookModel

/// The values every design token may take. Layout, cairo and Pango all assume sane numbers (an
/// astronomically large body never fits a line, a zero size makes a singular matrix, a huge blur
/// radius never finishes), so a value outside its range is refused with its place and the range,
/// never clamped. docs/rendering.md lists the same table.
public struct TokenRange: Sendable {
    /// The token's path under `tokens` ("typography.body.size").
    public let path: String
    public let range: ClosedRange<Double>
    /// How the value is measured ("pt", "× the size", "em", "" for a plain number).
    public let unit: String
    let value: @Sendable (DesignTokens) -> Double?

    /// "4–144 pt".
    public var allowed: String {
        "\(Self.number(range.lowerBound))–\(Self.number(range.upperBound))" + (unit.isEmpty ? "" : " " + unit)
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// A token with a word from a fixed list ("align": "justify").
public struct TokenChoice: Sendable {
    public let path: String
    public let allowed: [String]
    let value: @Sendable (DesignTokens) -> String?
}

/// One token outside what it may be.
public struct TokenViolation: Sendable, Equatable {
    /// Under `tokens`, dotted ("typography.body.size").
    public var path: String
    public var message: String
}

public enum TokenRanges {
    static let roles: [(String, @Sendable (Typography) -> TypeRole)] = [
        ("title", { $0.title }), ("subtitle", { $0.subtitle }), ("body", { $0.body }),
        ("caption", { $0.caption }), ("chapterTitle", { $0.chapterTitle }), ("pageNumber", { $0.pageNumber }),
    ]

    /// Every numeric token and its range.
    public static let numbers: [TokenRange] = {
        var table: [TokenRange] = []
        for (name, role) in roles {
            let p = "typography.\(name)."
            table.append(TokenRange(path: p + "size", range: 4...144, unit: "pt") { role($0.typography).size })
            table.append(TokenRange(path: p + "weight", range: 100...900, unit: "") { Double(role($0.typography).weight) })
            table.append(TokenRange(path: p + "lineHeight", range: 0.8...3, unit: "× the size") { role($0.typography).lineHeight })
            table.append(TokenRange(path: p + "indent", range: 0...10, unit: "em") { role($0.typography).indent })
            table.append(TokenRange(path: p + "paragraphSpacing", range: 0...5, unit: "em") { role($0.typography).paragraphSpacing })
            table.append(TokenRange(path: p + "minSize", range: 4...144, unit: "pt") { role($0.typography).minSize })
            table.append(TokenRange(path: p + "condensed.weight", range: 100...900, unit: "") { role($0.typography).condensed?.weight.map(Double.init) })
            table.append(TokenRange(path: p + "condensed.lineHeight", range: 0.8...3, unit: "× the size") { role($0.typography).condensed?.lineHeight })
        }
        let margins: [(String, @Sendable (TokenMargins) -> Length)] = [
            ("top", { $0.top }), ("bottom", { $0.bottom }), ("inner", { $0.inner }), ("outer", { $0.outer }),
        ]
        for (side, length) in margins {
            table.append(TokenRange(path: "sizing.margins.\(side)", range: 0...288, unit: "pt") { length($0.sizing.margins).points })
        }
        table += [
            TokenRange(path: "sizing.cornerRadius", range: 0...72, unit: "pt") { $0.sizing.cornerRadius },
            TokenRange(path: "sizing.shadow.radius", range: 0...72, unit: "pt") { $0.sizing.shadow.radius },
            TokenRange(path: "sizing.shadow.y", range: -72...72, unit: "pt") { $0.sizing.shadow.y },
            TokenRange(path: "sizing.shadow.opacity", range: 0...1, unit: "") { $0.sizing.shadow.opacity },
            TokenRange(path: "templates.illustration.bandMinFraction", range: 0.05...0.9, unit: "of the page height") {
                $0.templates.illustration.bandMinFraction },
            TokenRange(path: "templates.illustration.bandMaxFraction", range: 0.05...0.9, unit: "of the page height") {
                $0.templates.illustration.bandMaxFraction },
            TokenRange(path: "templates.photo.frameFraction", range: 0.1...1, unit: "of the text area's height") {
                $0.templates.photo.frameFraction },
            TokenRange(path: "templates.text.indent", range: 0...10, unit: "em") { $0.templates.text.indent },
            TokenRange(path: "templates.text.paragraphSpacing", range: 0...5, unit: "em") { $0.templates.text.paragraphSpacing },
            TokenRange(path: "templates.chapter.sink", range: 0...0.8, unit: "of the text area's height") { $0.templates.chapter?.sink },
            TokenRange(path: "templates.matter.contentsFrom", range: 1...1000, unit: "chapters") {
                $0.templates.matter?.contentsFrom.map(Double.init) },
            TokenRange(path: "typography.measure.min", range: 10...200, unit: "characters") { $0.typography.measure?.min },
            TokenRange(path: "typography.measure.max", range: 10...200, unit: "characters") { $0.typography.measure?.max },
            TokenRange(path: "typography.measure.ideal", range: 10...200, unit: "characters") { $0.typography.measure?.ideal },
            TokenRange(path: "typography.measure.maxBodySize", range: 4...144, unit: "pt") { $0.typography.measure?.maxBodySize },
            TokenRange(path: "typography.measure.minBodySize", range: 4...144, unit: "pt") { $0.typography.measure?.minBodySize },
            TokenRange(path: "templates.illustration.placement.minContrast", range: 1...21, unit: ": 1") {
                $0.templates.illustration.placement?.minContrast },
            TokenRange(path: "templates.illustration.over.minContrast", range: 1...21, unit: ": 1") {
                $0.templates.illustration.over?.minContrast },
            TokenRange(path: "templates.cover.placement.minContrast", range: 1...21, unit: ": 1") {
                $0.templates.cover.placement?.minContrast },
            TokenRange(path: "templates.spread.placement.minContrast", range: 1...21, unit: ": 1") {
                $0.templates.spread?.placement?.minContrast },
        ]
        return table
    }()

    public static let alignments = ["start", "center", "end", "justify"]
    public static let lineBreakings = ["optimal", "first-fit"]

    /// Every token that is a word from a list.
    public static let choices: [TokenChoice] = {
        var table = roles.map { name, role in
            TokenChoice(path: "typography.\(name).align", allowed: alignments) { role($0.typography).align }
        }
        table.append(TokenChoice(path: "templates.text.align", allowed: alignments) { $0.templates.text.align })
        table.append(TokenChoice(path: "typography.lineBreaking", allowed: lineBreakings) { $0.typography.lineBreaking })
        table.append(TokenChoice(path: "templates.cover.style", allowed: ["image-top", "full-bleed"]) { $0.templates.cover.style })
        table.append(TokenChoice(path: "templates.text.vertical", allowed: ["top", "center", "optical"]) { $0.templates.text.vertical })
        table.append(TokenChoice(path: "templates.chapter.chapterOpening", allowed: ["sink", "page"]) { $0.templates.chapter?.chapterOpening })
        table.append(TokenChoice(path: "templates.chapter.chapterStart", allowed: ["recto", "any"]) { $0.templates.chapter?.chapterStart })
        let placements: [(String, [TextPosition], @Sendable (DesignTokens) -> TextPlacementSettings?)] = [
            ("templates.illustration.placement", TextPosition.bands, { $0.templates.illustration.placement }),
            ("templates.illustration.over", TextPosition.overlays, { $0.templates.illustration.over }),
            ("templates.cover.placement", TextPosition.overlays, { $0.templates.cover.placement }),
            ("templates.spread.placement", TextPosition.overlays, { $0.templates.spread?.placement }),
        ]
        for (path, allowed, placement) in placements {
            let names = allowed.map(\.rawValue)
            table.append(TokenChoice(path: path + ".pin", allowed: names) { placement($0)?.pin })
            table.append(TokenChoice(path: path + ".backing", allowed: TextPlacementSettings.backings) { placement($0)?.backing })
            for i in 0..<TextPosition.allCases.count {
                table.append(TokenChoice(path: path + ".positions[\(i)]", allowed: names) { tokens in
                    placement(tokens)?.positions.flatMap { i < $0.count ? $0[i] : nil }
                })
            }
        }
        return table
    }()

    /// What is wrong with `tokens`, in the table's order; empty when every token is in range.
    public static func violations(_ tokens: DesignTokens) -> [TokenViolation] {
        var found: [TokenViolation] = []
        for entry in numbers {
            guard let v = entry.value(tokens), !entry.range.contains(v) else { continue }
            found.append(TokenViolation(path: entry.path,
                                        message: "\(TokenRange.number(v)) is outside the allowed range \(entry.allowed)"))
        }
        let band = tokens.templates.illustration
        if band.bandMinFraction > band.bandMaxFraction,
           found.allSatisfy({ !$0.path.hasPrefix("templates.illustration.") }) {
            found.append(TokenViolation(path: "templates.illustration.bandMinFraction",
                message: "\(TokenRange.number(band.bandMinFraction)) is larger than bandMaxFraction (\(TokenRange.number(band.bandMaxFraction)))"))
        }
        if let m = tokens.typography.measure, found.allSatisfy({ !$0.path.hasPrefix("typography.measure.") }),
           !(m.min <= m.ideal && m.ideal <= m.max) || m.minBodySize > m.maxBodySize {
            found.append(TokenViolation(path: "typography.measure",
                message: "needs min ≤ ideal ≤ max and minBodySize ≤ maxBodySize"))
        }
        for entry in choices {
            guard let v = entry.value(tokens), !entry.allowed.contains(v) else { continue }
            found.append(TokenViolation(path: entry.path,
                                        message: "\"\(v)\" is not one of \(entry.allowed.joined(separator: ", "))"))
        }
        return found
    }
}

/// The same for a print profile's numbers (`templates/profiles/<name>.json`): a profile with a
/// zero page multiple or a bleed of a metre would divide by zero or draw nothing a printer takes.
public enum ProfileRanges {
    public struct Entry: Sendable {
        public let path: String
        public let range: ClosedRange<Double>
        public let unit: String
        let values: @Sendable (PrintProfile) -> [(String, Double)]
    }

    static func one(_ path: String, _ range: ClosedRange<Double>, _ unit: String,
                    _ value: @escaping @Sendable (PrintProfile) -> Double?) -> Entry {
        Entry(path: path, range: range, unit: unit) { p in value(p).map { [(path, $0)] } ?? [] }
    }

    public static let numbers: [Entry] = [
        one("bleed.top", 0...72, "pt") { $0.bleed.top.points },
        one("bleed.bottom", 0...72, "pt") { $0.bleed.bottom.points },
        one("bleed.inner", 0...72, "pt") { $0.bleed.inner.points },
        one("bleed.outer", 0...72, "pt") { $0.bleed.outer.points },
        one("safety", 0...72, "pt") { $0.safety.points },
        one("minOutsideMargin", 0...144, "pt") { $0.minOutsideMargin?.points },
        Entry(path: "gutter[].margin", range: 0...144, unit: "pt") { p in
            (p.gutter ?? []).enumerated().map { ("gutter[\($0.offset)].margin", $0.element.margin.points) } },
        Entry(path: "gutter[].maxPages", range: 1...100_000, unit: "pages") { p in
            (p.gutter ?? []).enumerated().map { ("gutter[\($0.offset)].maxPages", Double($0.element.maxPages)) } },
        one("pages.min", 1...100_000, "pages") { $0.pages.min.map(Double.init) },
        one("pages.max", 1...100_000, "pages") { $0.pages.max.map(Double.init) },
        one("pages.multiple", 1...64, "pages") { Double($0.pages.multiple) },
        Entry(path: "pages.byTrim[].multiple", range: 1...64, unit: "pages") { p in
            (p.pages.byTrim ?? []).enumerated().map { ("pages.byTrim[\($0.offset)].multiple", Double($0.element.multiple)) } },
        Entry(path: "trims.sizes[]", range: 72...4320, unit: "pt") { p in
            (p.trims?.sizes ?? []).enumerated().flatMap { [("trims.sizes[\($0.offset)]", $0.element.width), ("trims.sizes[\($0.offset)]", $0.element.height)] } },
        one("trims.custom.minWidth", 72...4320, "pt") { $0.trims?.custom?.minWidth.points },
        one("trims.custom.maxWidth", 72...4320, "pt") { $0.trims?.custom?.maxWidth.points },
        one("trims.custom.minHeight", 72...4320, "pt") { $0.trims?.custom?.minHeight.points },
        one("trims.custom.maxHeight", 72...4320, "pt") { $0.trims?.custom?.maxHeight.points },
        one("marks.margin", 0...144, "pt") { $0.marks.margin.points },
        one("maxInk", 100...400, "%") { $0.maxInk },
        one("jpegQuality", 50...100, "") { $0.jpegQuality.map(Double.init) },
        one("minImageDPI", 0...1200, "dpi") { $0.minImageDPI },
        one("recommendedImageDPI", 0...1200, "dpi") { $0.recommendedImageDPI },
        one("maxFileSizeMB", 1...100_000, "MB") { $0.maxFileSizeMB },
        Entry(path: "spine.perPage.<paper>", range: 0...0.1, unit: "in") { p in
            (p.spine?.perPage ?? [:]).sorted { $0.key < $1.key }.map { ("spine.perPage.\($0.key)", $0.value) } },
        one("spine.baseInches", 0...2, "in") { $0.spine?.baseInches },
        one("spine.textMinPages", 0...100_000, "pages") { $0.spine?.textMinPages.map(Double.init) },
        one("spine.textMinInches", 0...10, "in") { $0.spine?.textMinInches },
        one("spine.foldVarianceInches", 0...0.5, "in") { $0.spine?.foldVarianceInches },
        one("casewrap.wrapInches", 0...2, "in") { $0.casewrap?.wrapInches },
        one("casewrap.minPages", 1...100_000, "pages") { $0.casewrap.map { Double($0.minPages) } },
        Entry(path: "casewrap.spine[].inches", range: 0...10, unit: "in") { p in
            (p.casewrap?.spine ?? []).enumerated().map { ("casewrap.spine[\($0.offset)].inches", $0.element.inches) } },
    ]

    /// "$.bleed.top: 1000 is outside the allowed range 0–72 pt", one per value out of range.
    public static func violations(_ profile: PrintProfile) -> [ConfigIssue] {
        var found: [ConfigIssue] = []
        for entry in numbers {
            for (path, value) in entry.values(profile) where !entry.range.contains(value) {
                let allowed = "\(TokenRange.number(entry.range.lowerBound))–\(TokenRange.number(entry.range.upperBound)) \(entry.unit)"
                found.append(ConfigIssue(file: nil, jsonPath: "$." + path,
                                         message: "\(TokenRange.number(value)) is outside the allowed range \(allowed)"))
            }
        }
        if let c = profile.trims?.custom, c.minWidth.points > c.maxWidth.points || c.minHeight.points > c.maxHeight.points {
            found.append(ConfigIssue(file: nil, jsonPath: "$.trims.custom", message: "a minimum is larger than its maximum"))
        }
        if profile.minImageDPI > profile.recommendedImageDPI {
            found.append(ConfigIssue(file: nil, jsonPath: "$.minImageDPI",
                                     message: "\(TokenRange.number(profile.minImageDPI)) is more than recommendedImageDPI (\(TokenRange.number(profile.recommendedImageDPI)))"))
        }
        if let steps = profile.casewrap?.spine, let i = steps.indices.dropFirst().first(where: { steps[$0 - 1].maxPages >= steps[$0].maxPages }) {
            found.append(ConfigIssue(file: nil, jsonPath: "$.casewrap.spine[\(i)].maxPages",
                                     message: "\(steps[i].maxPages) is not more than the bracket before it (\(steps[i - 1].maxPages)); list the brackets smallest first"))
        }
        if let min = profile.pages.min, let max = profile.pages.max, min > max {
            found.append(ConfigIssue(file: nil, jsonPath: "$.pages.min", message: "\(min) is more than pages.max (\(max))"))
        }
        return found
    }
}
