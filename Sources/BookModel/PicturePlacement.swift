import Foundation

/// Where a picture's subject is, as a point in the picture: x from its left edge (0) to its right
/// (1), y from its top (0) to its foot (1). A crop keeps this point as near the middle as it can.
public struct PictureFocus: Codable, Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// What is wrong with each coordinate, by its key; empty when both lie in 0…1.
    public func problems() -> [(key: String, message: String)] {
        [("x", x, "left edge (0) to its right edge (1)"), ("y", y, "top (0) to its foot (1)")].compactMap { key, value, span in
            (0...1).contains(value) ? nil : (key, "\(Self.format(value)) is outside 0…1; give the subject's place from the picture's \(span)")
        }
    }

    private static func format(_ value: Double) -> String {
        value.isFinite ? String(format: "%g", value) : "\(value)"
    }
}

/// How a picture fills the area its page gives it.
public enum PictureFit: String, Codable, Sendable, CaseIterable {
    /// The area is filled and the overflow cropped, keeping the subject.
    case cover
    /// The whole picture shows, with the page around it where the shapes differ.
    case contain

    public init(from decoder: any Decoder) throws {
        self = try decodeNamedCase(from: decoder, noun: "a fit")
    }
}
