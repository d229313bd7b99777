import Foundation

/// A colour in CIELAB (D65), where distance follows what the eye sees better than in RGB.
/// The conversion is the CIE's formula from sRGB; a colour engine would add nothing here.
public struct CIELab: Equatable, Sendable {
    public var l: Float, a: Float, b: Float

    public init(l: Float, a: Float, b: Float) { self.l = l; self.a = a; self.b = b }

    /// From sRGB components in 0…1.
    public init(_ red: Float, _ green: Float, _ blue: Float) {
        func linear(_ u: Float) -> Float { u <= 0.04045 ? u / 12.92 : pow((u + 0.055) / 1.055, 2.4) }
        let r = linear(red), g = linear(green), b = linear(blue)
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Float) -> Float { t > 0.008856 ? cbrt(t) : 7.787 * t + 16 / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// CIE76 ΔE.
    public func distance(to o: CIELab) -> Float {
        let dl = l - o.l, da = a - o.a, db = b - o.b
        return (dl * dl + da * da + db * db).squareRoot()
    }
}
