import Foundation

/// An amount of money as Lulu sends it, a decimal string ("2257.37"), kept exact: the digits it
/// came with are the ones shown, and sums are made in decimal, never in binary floating point.
public struct Money: Sendable, Equatable, Comparable, Codable, CustomStringConvertible {
    public let amount: Decimal
    /// Digits after the point, as sent (at least those of the currency's cents when summed).
    public let scale: Int

    /// "12", "12.5", "-0.75": digits with at most one point, and a sign; nil for anything else
    /// ("1e3", "12,50", " 12", "NaN").
    public init?(_ text: String) {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), parts.count == 1 || !parts[1].isEmpty,
              let value = Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        amount = value
        scale = parts.count == 2 ? parts[1].count : 0
    }

    public init(amount: Decimal, scale: Int) { self.amount = amount; self.scale = scale }

    public static let zero = Money(amount: 0, scale: 2)

    public static func + (a: Money, b: Money) -> Money { Money(amount: a.amount + b.amount, scale: max(a.scale, b.scale)) }
    public static func * (a: Money, n: Int) -> Money { Money(amount: a.amount * Decimal(n), scale: a.scale) }
    public static func < (a: Money, b: Money) -> Bool { a.amount < b.amount }
    public static func == (a: Money, b: Money) -> Bool { a.amount == b.amount }

    /// The amount with exactly `scale` digits after the point ("14.00").
    public var description: String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, scale, .bankers)
        let negative = rounded < 0
        var digits = NSDecimalNumber(decimal: negative ? -rounded : rounded).stringValue
        if scale > 0 {
            let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
            let fraction = parts.count > 1 ? String(parts[1]) : ""
            digits = String(parts[0]) + "." + fraction + String(repeating: "0", count: max(0, scale - fraction.count))
        }
        return (negative ? "-" : "") + digits
    }

    /// Encoded as the decimal string, so a program reading the report never parses a float.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let parsed = Money(text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\"\(text)\" is not a decimal amount such as \"12.50\"")
        }
        self = parsed
    }
}
