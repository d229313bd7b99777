import CGraphics

/// Decoded pixels in a cairo image surface, as stored (EXIF orientation is not applied: the
/// drawing code turns the image with a transform, the same way for PDF pass-through and PNG).
/// Not Sendable: cairo surfaces are used by one thread at a time.
public final class DecodedImage {
    /// A `cairo_surface_t` (RGB24, or premultiplied ARGB32 when `hasAlpha`), owned by this
    /// object and destroyed with it; keep the object alive while cairo may read the surface.
    public let surface: OpaquePointer
    /// Pixel size, which is smaller than stored when a JPEG was decoded with DCT scaling.
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool

    /// Takes over the caller's reference to `surface`.
    public init(surface: OpaquePointer, width: Int, height: Int, hasAlpha: Bool) {
        self.surface = surface
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
    }

    deinit { cairo_surface_destroy(surface) }
}
