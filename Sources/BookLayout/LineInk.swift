import CGraphics

extension TextLayout {
    /// The ink of line `index` (the union of its glyphs' outlines, as the font describes them), in
    /// layout coordinates; nil for a line with no ink or once the Pango layouts are released.
    /// Something placed by its ink sits where it is seen, whatever room the font leaves above and
    /// below its letters.
    public func inkBounds(line index: Int) -> Rect? {
        var ink = PangoRectangle(), logical = PangoRectangle()
        if let pangoLine = pangoLine(index) {
            pango_layout_line_get_extents(pangoLine, &ink, &logical)
        } else if let broken = brokenLine(index) {
            ink = broken.ink
        } else {
            return nil
        }
        guard ink.width > 0, ink.height > 0 else { return nil }
        let scale = Double(PANGO_SCALE), line = lines[index]
        return Rect(x: line.x + Double(ink.x) / scale, y: line.baseline + Double(ink.y) / scale,
                    width: Double(ink.width) / scale, height: Double(ink.height) / scale)
    }
}
