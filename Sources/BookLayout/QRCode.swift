import CGraphics

/// A QR symbol from libqrencode: the module grid, drawn later as vector squares.
struct QRCode {
    let size: Int
    let modules: [Bool]

    /// Error correction M (15 %) survives a scuffed printed page; version chosen by libqrencode.
    init?(encoding text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }
}
