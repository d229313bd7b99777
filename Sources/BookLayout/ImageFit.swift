/// Where a picture of a given aspect lands in a box.
enum ImageFit {
    /// Fills the box, cropping the overflow (illustrations, spreads, cover art).
    static func cover(width w: Double, height h: Double, in box: Rect) -> Rect {
        let scale = max(box.width / w, box.height / h)
        let fw = w * scale, fh = h * scale
        return Rect(x: box.x + (box.width - fw) / 2, y: box.y + (box.height - fh) / 2, width: fw, height: fh)
    }

    /// Fits wholly inside the box (photos keep every pixel).
    static func contain(width w: Double, height h: Double, in box: Rect) -> Rect {
        let scale = min(box.width / w, box.height / h)
        let fw = w * scale, fh = h * scale
        return Rect(x: box.x + (box.width - fw) / 2, y: box.y + (box.height - fh) / 2, width: fw, height: fh)
    }
}
