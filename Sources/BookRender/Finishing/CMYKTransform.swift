import Foundation
import BookBase
import CShim
import CContentColour

/// sRGB to a printer's CMYK through Little CMS: for pictures (`CMYKPictures`), and for the colours
/// and remaining pixels of a PDF (`CMYKConverter`). One transform is shared by every thread.
public final class CMYKTransform: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    /// The press profile's bytes (ink-limited), as the output intent carries them.
    public let profile: Data
    /// XXH3-128 of `profile`: conversions made with it are cached under it.
    public let profileID: String
    /// The limit the transform holds colours under, percent (nil: none).
    public let inkLimit: Double?

    /// `inkLimit`: percent of total ink no converted colour or pixel passes (nil: none). The
    /// profile's grid is held under it already; this catches what lands between grid points.
    public init(profile: Data, inkLimit: Double? = nil) throws {
        var message = [CChar](repeating: 0, count: 256)
        let made = profile.withUnsafeBytes { raw in
            shim_cmyk_transform_new(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &message, message.count)
        }
        guard let made else {
            throw FinishingError("cannot convert to the press profile: \(String(cString: message))")
        }
        pointer = made
        shim_cmyk_transform_set_ink_limit(made, inkLimit ?? 0)
        self.profile = profile
        self.inkLimit = inkLimit
        profileID = ContentHash.hex(profile)
    }

    deinit { shim_cmyk_transform_free(pointer) }

    /// One colour, RGB 0…1 in, C, M, Y, K 0…1 out.
    public func convert(red: Double, green: Double, blue: Double) -> [Double] {
        var out = [Double](repeating: 0, count: 4)
        shim_cmyk_convert(pointer, red, green, blue, &out)
        return out
    }

    /// For the content-stream filter: the same transform as C callbacks.
    var contentConverter: content_cmyk_converter {
        content_cmyk_converter(context: pointer, colour: { context, r, g, b, out in shim_cmyk_convert(context, r, g, b, out) },
                               pixels: { context, rgb, cmyk, count in shim_cmyk_convert_rgb8(context, rgb, cmyk, count) })
    }
}
