import Foundation
import BookConfig

/// The profile's two resolution thresholds applied to one picture as it prints: under
/// `minImageDPI` an error (the printer's review refuses or the print is visibly soft), under
/// `recommendedImageDPI` a warning. Book, cover and PDF preflight all judge pictures here.
public enum PictureResolution {
    /// nil when `dpi` (the lower of the two axes, pixels per inch at print size) is good enough.
    public static func finding(dpi: Double, profile: PrintProfile, page: Int?, file: String?, picture: String) -> PreflightFinding? {
        // Half a pixel per inch of slack: a picture made for exactly the threshold measures a
        // little under it once its frame is rounded to points.
        if profile.minImageDPI > 0, dpi + 0.5 < profile.minImageDPI {
            return PreflightFinding(.error, .lowResolution, page: page, file: file, String(format:
                "%@ prints at %.0f ppi, below the %.0f ppi %@ accepts (%.0f recommended); use a larger image or a smaller frame",
                picture, dpi, profile.minImageDPI, profile.name, profile.recommendedImageDPI))
        }
        if dpi + 0.5 < profile.recommendedImageDPI {
            return PreflightFinding(.warning, .lowResolution, page: page, file: file, String(format:
                "%@ prints at %.0f ppi, below the %.0f ppi %@ recommends; it may print soft", picture, dpi, profile.recommendedImageDPI, profile.name))
        }
        return nil
    }
}
