import Foundation

/// A PDF written by hand around one picture, for checks of how a picture is stored and read
/// (ink, colour space, `/Decode`) without a drawing library in between: one page of `width` ×
/// `height` points that paints the image at one point per pixel.
public enum OneImagePDF {
    /// `imageEntries`: the image dictionary's entries beyond its type, size, length and data
    /// (`/ColorSpace /DeviceCMYK /BitsPerComponent 8 /Filter /DCTDecode`).
    public static func make(image: Data, width: Int, height: Int, imageEntries: String) -> Data {
        let body = "q \(width) 0 0 \(height) 0 0 cm /Im Do Q\n"
        var out = Data("%PDF-1.3\n".utf8), offsets: [Int] = []
        func object(_ text: String, stream: Data? = nil) {
            offsets.append(out.count)
            out += Data("\(offsets.count) 0 obj\n\(text)\n".utf8)
            if let stream { out += Data("stream\n".utf8) + stream + Data("\nendstream\n".utf8) }
            out += Data("endobj\n".utf8)
        }
        object("<< /Type /Catalog /Pages 2 0 R >>")
        object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Resources << /XObject << /Im 5 0 R >> >> /Contents 4 0 R >>")
        object("<< /Length \(body.utf8.count) >>", stream: Data(body.utf8))
        object("<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) \(imageEntries) /Length \(image.count) >>", stream: image)
        let xref = out.count
        out += Data("xref\n0 6\n0000000000 65535 f \n".utf8)
        for o in offsets { out += Data(String(format: "%010d 00000 n \n", o).utf8) }
        out += Data("trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
