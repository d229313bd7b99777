/// The colours that tell a book's main character apart, learned from its reference picture
/// (`characters.main.image`, drawn on a plain background), and where a page's picture shows them.
///
/// A colour histogram of the character, its background left out, is projected back onto a page's
/// thumbnail: a cell scores by how much more of its colour the character has than the page has,
/// so the character's coat counts where the page holds little of that colour, and a colour the
/// page is full of (a sky, a lawn) hardly counts even when the character wears it too.
public struct CharacterColours: Sendable, Equatable {
    /// The reference picture's id: an estimate depends on it, so anything keeping estimates keys them by it.
    public let id: String
    /// The character's share of each colour bin (`levels` a channel, trilinear), summing to 1.
    let histogram: [Float]

    /// Bins a channel: coarse enough that a page's shading of a colour still finds it.
    static let levels = 8
    /// How far from the reference's background a cell must be to belong to the character.
    static let apart: Float = 0.12
    /// How close to its median the border of a character sheet stays, nearly all round.
    static let plain: Float = 0.04

    /// The character's colours in `reference`; nil when it has no plain background to tell the
    /// character from (a scene rather than a character sheet), or next to nothing on it.
    public init?(reference t: Thumbnail, id: String) {
        let w = t.width, h = t.height
        guard w >= 3, h >= 3 else { return nil }
        var border: [Int] = []
        for x in 0..<w { border += [x, (h - 1) * w + x] }
        for y in 1..<(h - 1) { border += [y * w, y * w + w - 1] }
        func median(_ channel: [Float]) -> Float {
            let v = border.map { channel[$0] }.sorted()
            return v[v.count / 2]
        }
        let bg = (median(t.red), median(t.green), median(t.blue))
        func far(_ i: Int) -> Bool { Self.distance(t, i, bg) > Self.apart }
        // A plain background is the same colour nearly all round; a scene's sky darkens or
        // lightens towards its ground.
        guard border.filter({ Self.distance(t, $0, bg) > Self.plain }).count * 10 <= border.count else { return nil }
        let figure = (0..<(w * h)).filter(far)
        guard figure.count * 50 >= w * h else { return nil }
        var histogram = [Float](repeating: 0, count: Self.levels * Self.levels * Self.levels)
        for i in figure { Self.spread(t.red[i], t.green[i], t.blue[i]) { histogram[$0] += $1 } }
        let sum = histogram.reduce(0, +)
        self.id = id
        self.histogram = histogram.map { $0 / sum }
    }

    /// How strongly each cell of `t` shows the character's colours, 0…1.
    ///
    /// The ratio of the character's share of a colour to the page's share (Swain and Ballard's
    /// ratio histogram), scaled so that the colour at the middle of the character's mass scores 1:
    /// a page that holds the character shows its main colours at about the same ratio, and any
    /// colour it has far more of scores little. A page without the character has its colours
    /// nowhere, so the middle ratio is high and nothing scores much.
    func match(_ t: Thumbnail) -> [Float] {
        let n = t.width * t.height
        var page = [Float](repeating: 0, count: histogram.count)
        for i in 0..<n { Self.spread(t.red[i], t.green[i], t.blue[i]) { page[$0] += $1 / Float(n) } }
        let floor = 1 / Float(n)
        var ratios: [(ratio: Float, mass: Float)] = []
        for b in histogram.indices where histogram[b] > 0 { ratios.append((histogram[b] / (page[b] + floor), histogram[b])) }
        guard !ratios.isEmpty else { return [Float](repeating: 0, count: n) }
        ratios.sort { $0.ratio < $1.ratio }
        let total = ratios.reduce(0) { $0 + $1.mass }
        var running: Float = 0, middle = ratios[ratios.count - 1].ratio
        for r in ratios {
            running += r.mass
            if running >= total / 2 { middle = r.ratio; break }
        }
        guard middle > 0 else { return [Float](repeating: 0, count: n) }
        let score = histogram.indices.map { min(1, histogram[$0] / (page[$0] + floor) / middle) }
        return (0..<n).map { i in
            var s: Float = 0
            Self.spread(t.red[i], t.green[i], t.blue[i]) { s += score[$0] * $1 }
            return s
        }
    }

    /// Hands each of the eight bins around a colour its trilinear share.
    private static func spread(_ r: Float, _ g: Float, _ b: Float, _ add: (Int, Float) -> Void) {
        let l = levels
        func axis(_ c: Float) -> (Int, Float) {
            let p = min(Float(l - 1), max(0, c * Float(l) - 0.5))
            let i = min(l - 2, Int(p))
            return (i, p - Float(i))
        }
        let (ri, rf) = axis(r), (gi, gf) = axis(g), (bi, bf) = axis(b)
        for dr in 0...1 {
            let wr = dr == 0 ? 1 - rf : rf
            for dg in 0...1 {
                let wg = dg == 0 ? 1 - gf : gf
                for db in 0...1 {
                    let wb = db == 0 ? 1 - bf : bf
                    add(((ri + dr) * l + gi + dg) * l + bi + db, wr * wg * wb)
                }
            }
        }
    }

    private static func distance(_ t: Thumbnail, _ i: Int, _ c: (Float, Float, Float)) -> Float {
        let dr = t.red[i] - c.0, dg = t.green[i] - c.1, db = t.blue[i] - c.2
        return (dr * dr + dg * dg + db * db).squareRoot() / Float(3).squareRoot()
    }
}
