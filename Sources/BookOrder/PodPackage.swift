import Foundation

/// Lulu's product code, the `pod_package_id`: trim size + colour + print quality + binding +
/// paper + pages per inch + cover finish + linen + foil, 27 characters
/// ("0600X0900BWSTDPB060UW444MXX": 6 × 9 in, black and white, standard, perfect bound, 60#
/// uncoated white paper of 444 pages per inch, matte, no linen, no foil).
public struct PodPackage: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Hundredths of an inch, as the code writes them ("0850" for 8.5 in, "0687" for 6.875 in).
    public var widthHundredths: Int
    public var heightHundredths: Int
    /// BW (black and white) or FC (full colour).
    public var colour: String
    /// STD or PRE.
    public var quality: String
    /// PB (perfect bound paperback), CW (casewrap hardcover), LW (linen wrap), CO (coil), SS (saddle stitch).
    public var binding: String
    /// "060UW444": paper weight, coating and shade, and its pages per inch.
    public var paper: String
    /// G (gloss), M (matte) or U (unlaminated).
    public var finish: String
    public var linen: String
    public var foil: String

    public static let colours = ["BW": "black and white", "FC": "full colour"]
    public static let qualities = ["STD": "standard", "PRE": "premium"]
    public static let bindings = ["PB": "perfect bound paperback", "CW": "casewrap hardcover", "LW": "linen wrap hardcover",
                                  "CO": "coil bound", "SS": "saddle stitch"]
    public static let finishes = ["G": "gloss", "M": "matte", "U": "unlaminated"]

    public init(widthHundredths: Int, heightHundredths: Int, colour: String, quality: String, binding: String,
                paper: String, finish: String, linen: String = "X", foil: String = "X") {
        self.widthHundredths = widthHundredths; self.heightHundredths = heightHundredths; self.colour = colour
        self.quality = quality; self.binding = binding; self.paper = paper; self.finish = finish; self.linen = linen; self.foil = foil
    }

    /// A trim in points as the code's hundredths of an inch: rounded to the thousandth the
    /// printers list trims to, then cut (6.875 in is "0687", as Lulu writes it).
    public static func hundredths(points: Double) -> Int {
        let inches = (points / 72 * 1000).rounded() / 1000
        return Int((inches * 100 + 1e-6).rounded(.down))
    }

    public var description: String {
        String(format: "%04dX%04d", widthHundredths, heightHundredths) + colour + quality + binding + paper + finish + linen + foil
    }

    /// Reads a code: the 27-character form, or the dotted one Lulu also accepts
    /// ("0600X0900.BW.STD.PB.060UW444.MXX").
    public init?(_ text: String) {
        let plain = text.replacingOccurrences(of: ".", with: "").uppercased()
        let c = Array(plain)
        guard c.count == 27, c[4] == "X" else { return nil }
        func s(_ r: Range<Int>) -> String { String(c[r]) }
        guard let w = Int(s(0..<4)), let h = Int(s(5..<9)), w > 0, h > 0 else { return nil }
        self.init(widthHundredths: w, heightHundredths: h, colour: s(9..<11), quality: s(11..<14), binding: s(14..<16),
                  paper: s(16..<24), finish: s(24..<25), linen: s(25..<26), foil: s(26..<27))
        guard Self.colours[colour] != nil, Self.qualities[quality] != nil, Self.bindings[binding] != nil,
              Self.finishes[finish] != nil, paper.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
    }

    public var trimInches: (width: Double, height: Double) { (Double(widthHundredths) / 100, Double(heightHundredths) / 100) }
    public var isHardcover: Bool { binding == "CW" || binding == "LW" }

    /// "8.5 × 8.5 in, full colour, premium, casewrap hardcover, 80# coated white, gloss".
    public var spoken: String {
        let paperName: String = {
            let weight = paper.prefix(3).drop { $0 == "0" }
            let kind = ["UW": "uncoated white", "UC": "uncoated cream", "CW": "coated white"][String(paper.dropFirst(3).prefix(2))] ?? String(paper.dropFirst(3).prefix(2))
            return "\(weight)# \(kind)"
        }()
        func inches(_ h: Int) -> String { let v = Double(h) / 100; return v == v.rounded() ? "\(Int(v))" : "\(v)" }
        return "\(inches(widthHundredths)) × \(inches(heightHundredths)) in, \(Self.colours[colour] ?? colour), "
            + "\(Self.qualities[quality] ?? quality), \(Self.bindings[binding] ?? binding), \(paperName), \(Self.finishes[finish] ?? finish)"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let parsed = PodPackage(text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\"\(text)\" is not a Lulu pod_package_id")
        }
        self = parsed
    }
}

/// What the book asks of the printer, as the product code's parts: the defaults follow the book,
/// each can be set.
public struct ProductChoice: Sendable, Equatable {
    public enum Colour: String, Sendable, CaseIterable { case bw, color }
    public enum Quality: String, Sendable, CaseIterable { case standard, premium }
    public enum Finish: String, Sendable, CaseIterable { case gloss, matte }

    public var binding: String = "paperback"
    public var colour: Colour?
    public var quality: Quality?
    /// white, cream or color (the names `cover --paper` takes).
    public var paper: String?
    public var finish: Finish?

    public init() {}

    /// Every part set: the given ones, and the book's defaults for the rest.
    public func effective(storybook: Bool, hasPictures: Bool) -> ProductChoice {
        var c = self
        c.colour = colour ?? (storybook || hasPictures ? .color : .bw)
        c.quality = quality ?? (storybook ? .premium : .standard)
        c.paper = paper ?? (c.colour == .color ? "color" : "white")
        c.finish = finish ?? (storybook ? .gloss : .matte)
        return c
    }

    /// The code for a book of this trim (points): a picture book in full colour on coated paper,
    /// premium and glossy; a memoir with photographs in standard colour, one of text alone black
    /// and white on white paper, both matte.
    public func package(trimWidth: Double, trimHeight: Double, storybook: Bool, hasPictures: Bool) throws(OrderError) -> PodPackage {
        let chosen = effective(storybook: storybook, hasPictures: hasPictures)
        guard let colour = chosen.colour, let quality = chosen.quality, let paper = chosen.paper, let finish = chosen.finish else {
            preconditionFailure("effective(storybook:hasPictures:) fills every part")
        }
        let papers = ["white": "060UW444", "cream": "060UC444", "color": "080CW444"]
        guard let paperCode = papers[paper] else {
            throw OrderError(.invalidOptions, "--paper must be white, cream or color for Lulu, not \(paper)")
        }
        if paper == "cream", colour == .color {
            throw OrderError(.invalidOptions, "Lulu prints cream paper in black and white only; use --paper white or color, or --color bw")
        }
        let bindingCode: String
        switch binding {
        case "paperback": bindingCode = "PB"
        case "hardcover": bindingCode = "CW"
        default: throw OrderError(.invalidOptions, "--binding must be paperback or hardcover, not \(binding)")
        }
        return PodPackage(widthHundredths: PodPackage.hundredths(points: trimWidth), heightHundredths: PodPackage.hundredths(points: trimHeight),
                          colour: colour == .color ? "FC" : "BW", quality: quality == .premium ? "PRE" : "STD", binding: bindingCode,
                          paper: paperCode, finish: finish == .gloss ? "G" : "M")
    }
}
