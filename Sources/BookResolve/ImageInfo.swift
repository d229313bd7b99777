/// What an image file holds, read from its headers without decoding a pixel.
public struct ImageInfo: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable {
        case jpeg, png
    }

    /// How colour is stored. A YCbCr JPEG is `.rgb`: that transform is lossless bookkeeping
    /// inside JPEG, while CMYK and YCCK need a conversion (and Adobe inversion) to show.
    public enum ColorModel: String, Sendable, Equatable {
        case gray, rgb, cmyk, ycck
    }

    public var format: Format
    /// Size as stored, before EXIF orientation.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Channels per pixel after expansion: a JPEG's component count; for a PNG, a palette counts
    /// as RGB and tRNS transparency adds an alpha channel.
    public var components: Int
    public var colorModel: ColorModel
    /// A PNG with an alpha channel or tRNS transparency; never a JPEG.
    public var hasAlpha: Bool
    /// Bits per sample as stored (JPEG: 8; PNG: 1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// A progressive JPEG, or an Adam7-interlaced PNG (both decode slower).
    public var progressive: Bool
    /// A CMYK or YCCK JPEG with an Adobe APP14 marker, whose values are stored inverted
    /// (0 = full ink). cairo embeds such a JPEG in a PDF without a /Decode array, so it prints
    /// as a negative unless the PDF path compensates.
    public var adobeInverted: Bool
    /// EXIF orientation, 1…8; 1 when the file has none.
    public var orientation: Int

    public init(
        format: Format, pixelWidth: Int, pixelHeight: Int, components: Int, colorModel: ColorModel,
        hasAlpha: Bool = false, bitDepth: Int = 8, progressive: Bool = false, adobeInverted: Bool = false,
        orientation: Int = 1
    ) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.components = components
        self.colorModel = colorModel
        self.hasAlpha = hasAlpha
        self.bitDepth = bitDepth
        self.progressive = progressive
        self.adobeInverted = adobeInverted
        self.orientation = orientation
    }

    /// Size as displayed: orientations 5–8 turn the image a quarter, swapping the sides.
    public var orientedWidth: Int { ExifOrientation.swapsAxes(orientation) ? pixelHeight : pixelWidth }
    public var orientedHeight: Int { ExifOrientation.swapsAxes(orientation) ? pixelWidth : pixelHeight }
}
