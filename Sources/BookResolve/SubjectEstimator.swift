import Foundation
import BookBase

/// Judges where a picture's subject is from its thumbnail alone, the same way every time, the way
/// a reader would pick it out.
///
/// A cell stands out as far as it differs from the background there and is unusual: the
/// background is what the picture's border shows, carried inwards (so a gradient sky or a band of
/// grass at the foot counts as background), or else what lies around the cell on every side (a
/// figure on a hill, though the hill is not at the border); unusual is a colour the picture has
/// little of and edges close by. When the book has a reference picture of its main character,
/// cells in the character's colours stand out too (`CharacterColours`).
///
/// The cells that stand out form candidates, weighed as a reader would: figures stand in the lower
/// two thirds, a bright round shape high in the picture is the sun or the moon, a speck is a star,
/// and a candidate in the character's colours is most likely the character. The subject's box is
/// where the middle of the weight of the strong candidates lies; weaker ones keep a little weight,
/// so text still prefers to leave them alone.
public enum SubjectEstimator {
    /// Raised whenever `estimate` may answer otherwise for the same thumbnail: estimates kept in
    /// the user's cache under an older version are then made again.
    public static let version = 2

    /// The share of the weight left out at each end of the box.
    static let tail = 0.01
    /// A candidate weighing less than this share of the strongest one is left out of the box.
    static let keep = 0.25
    /// A second candidate weighing at least this share of the strongest, this far from it (in
    /// shares of the picture), makes the estimate unsure.
    static let rivalShare = 0.6
    static let rivalDistance = 0.35
    /// A box over at least this share of the picture, with no candidate holding half the weight,
    /// is no subject but a busy picture.
    static let spreadArea = 0.5

    public static func estimate(_ t: Thumbnail, character: CharacterColours? = nil) -> PictureSubject {
        let w = t.width, h = t.height, n = w * h
        let match = character?.match(t)
        let s = saliency(t, match: match)
        guard let top = s.max(), top > 0.08 else { return whole(t) }
        let mean = s.reduce(0, +) / Float(n)
        let threshold = mean + 0.15 * (top - mean)
        var excess = s.map { max(0, $0 - threshold) }
        var regions = SubjectRegions.find(excess, thumbnail: t, match: match)
        guard let best = regions.first, best.score > 0 else { return whole(t) }
        grow(&regions, excess: &excess, saliency: s, threshold: threshold, width: w, strongest: best.score)

        var weights = [Float](repeating: 0, count: n), boxed = weights
        for region in regions {
            let factor = Float(region.score / region.mass)
            let strong = region.score >= keep * best.score
            for i in region.cells {
                weights[i] = excess[i] * factor
                if strong { boxed[i] = weights[i] }
            }
        }
        let sum = weights.reduce(0, +), boxedSum = boxed.reduce(0, +)
        let normalised = weights.map { $0 / sum }
        var columns = [Double](repeating: 0, count: w), rows = [Double](repeating: 0, count: h)
        for y in 0..<h {
            for x in 0..<w {
                let v = Double(boxed[y * w + x] / boxedSum)
                columns[x] += v; rows[y] += v
            }
        }
        let (x0, x1) = span(columns), (y0, y1) = span(rows)
        // Half a cell more all round: an outline that is faint against what is behind it (dark
        // boots on dark grass) stands out less than the threshold in the cell it half fills.
        let left = max(0, Double(x0) - 0.5), right = min(Double(w), Double(x1) + 1.5)
        let upper = max(0, Double(y0) - 0.5), lower = min(Double(h), Double(y1) + 1.5)
        let box = UnitRect(x: left / Double(w), y: upper / Double(h),
                           width: (right - left) / Double(w), height: (lower - upper) / Double(h))
        var subject = PictureSubject(box: box, centre: (box.midX, box.midY), source: .estimated, weights: normalised,
                                     grid: (w, h), thumbnail: t)
        subject.doubt = doubt(regions, box: box)
        return subject
    }

    /// A figure drawn in flat colour stands out less within it than at its edges and face: a coat
    /// of one colour has no edges inside, and a large one is no rare colour, so only the face (or
    /// the coat's outline) passes the threshold and a box weighed by what stands out ends at the
    /// shoulders. A strong candidate therefore takes in, first, the cells touching it that stand
    /// out at least half as much as the threshold asks (hysteresis, as an edge detector follows a
    /// faint stretch of a strong edge), weighed by how far they stand out, and then the cells
    /// between its cells on each row, at the weight of its median cell: a title set there would
    /// cross the coat.
    static func grow(_ regions: inout [SubjectRegions.Region], excess: inout [Float], saliency s: [Float], threshold: Float,
                     width w: Int, strongest: Double) {
        let n = s.count, h = n / w
        let low = threshold * growFrom
        var taken = Set(regions.flatMap(\.cells))
        for r in regions.indices where regions[r].score >= keep * strongest {
            let cells = regions[r].cells
            var sorted = cells.map { excess[$0] }
            let median = sorted.select(sorted.count / 2)
            var added: [Int] = []
            var stack = cells
            while let i = stack.popLast() {
                SubjectRegions.forEachNeighbour(of: i, width: w, height: h) { j in
                    guard !taken.contains(j), s[j] >= low else { return }
                    excess[j] = max(excess[j], median * (s[j] - low) / (threshold - low))
                    taken.insert(j); added.append(j); stack.append(j)
                }
            }
            var rows: [Int: (Int, Int)] = [:]
            for i in cells + added {
                let x = i % w, y = i / w
                rows[y] = rows[y].map { (min($0.0, x), max($0.1, x)) } ?? (x, x)
            }
            for (y, span) in rows where span.1 - span.0 > 1 {
                for x in (span.0 + 1)..<span.1 where !taken.contains(y * w + x) {
                    let i = y * w + x
                    excess[i] = max(excess[i], median)
                    taken.insert(i); added.append(i)
                }
            }
            regions[r].cells = (cells + added).sorted()
        }
    }

    /// How much of the threshold a cell touching a strong candidate must reach to be taken in.
    static let growFrom: Float = 0.5

    /// No subject to find (a plain picture, or one all of a piece): the whole picture stands for it.
    private static func whole(_ t: Thumbnail) -> PictureSubject {
        PictureSubject(box: .whole, centre: (0.5, 0.5), source: .estimated,
                       weights: PictureSubject.uniformWeights(in: .whole, width: t.width, height: t.height),
                       grid: (t.width, t.height), thumbnail: t)
    }

    /// Why the estimate may be wrong: a rival candidate nearly as strong far from the strongest,
    /// or weight spread over most of the picture.
    static func doubt(_ regions: [SubjectRegions.Region], box: UnitRect) -> PictureSubject.Doubt? {
        guard let best = regions.first else { return nil }
        for other in regions.dropFirst() where other.score >= rivalShare * best.score {
            let dx = other.centre.x - best.centre.x, dy = other.centre.y - best.centre.y
            if (dx * dx + dy * dy).squareRoot() >= rivalDistance {
                return .rival(x: best.centre.x, y: best.centre.y, otherX: other.centre.x, otherY: other.centre.y)
            }
        }
        let bestShare = best.score / regions.reduce(0) { $0 + $1.score }
        if box.area >= spreadArea && bestShare < 0.5 { return .spread }
        return nil
    }

    /// The first and last index between which all but `tail` of the mass at each end lies.
    private static func span(_ mass: [Double]) -> (Int, Int) {
        var running = 0.0, first = 0, last = mass.count - 1
        for (i, m) in mass.enumerated() {
            running += m
            if running >= tail { first = i; break }
        }
        running = 0
        for (i, m) in mass.enumerated().reversed() {
            running += m
            if running >= tail { last = i; break }
        }
        return (first, max(first, last))
    }

    /// How much each cell stands out, blurred over its neighbours; `match` is how strongly each
    /// shows the main character's colours.
    static func saliency(_ t: Thumbnail, match: [Float]?) -> [Float] {
        let w = t.width, h = t.height, n = w * h
        let background = borderBackground(t)
        let around = surroundContrast(t)
        let rarity = colourRarity(t)
        let edges = edgeDensity(t)
        var s = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let d = distance(t.red[i], t.green[i], t.blue[i], background.red[i], background.green[i], background.blue[i])
            let apart = min(1, max(d / 0.25, around[i] / 0.2))
            s[i] = apart * (0.6 * rarity[i] + 0.4 * edges[i])
        }
        if let match, let top = s.max() {
            for i in 0..<n { s[i] += 0.8 * top * match[i] }
        }
        return blur(s, width: w, height: h)
    }

    /// How far each cell's colour is from what lies around it on its least different side: the
    /// mean of a small square a few cells off to the left, right, above and below. A figure differs
    /// on every side; the edge of a hill or the horizon matches one side and scores nothing.
    static func surroundContrast(_ t: Thumbnail) -> [Float] {
        let w = t.width, h = t.height, reach = 4, half = 2
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var least = Float.infinity
                for (dx, dy) in [(reach, 0), (-reach, 0), (0, reach), (0, -reach)] {
                    let cx = x + dx, cy = y + dy
                    guard cx >= 0, cx < w, cy >= 0, cy < h else { continue }
                    var r: Float = 0, g: Float = 0, b: Float = 0, c: Float = 0
                    for yy in max(0, cy - half)...min(h - 1, cy + half) {
                        for xx in max(0, cx - half)...min(w - 1, cx + half) {
                            let j = yy * w + xx
                            r += t.red[j]; g += t.green[j]; b += t.blue[j]; c += 1
                        }
                    }
                    let i = y * w + x
                    least = min(least, distance(t.red[i], t.green[i], t.blue[i], r / c, g / c, b / c))
                }
                out[y * w + x] = least.isFinite ? least : 0
            }
        }
        return out
    }

    static func distance(_ r1: Float, _ g1: Float, _ b1: Float, _ r2: Float, _ g2: Float, _ b2: Float) -> Float {
        let dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        return (dr * dr + dg * dg + db * db).squareRoot() / Float(3).squareRoot()
    }

    /// The background each cell would show: the borders' colours (each a median along a short
    /// stretch of its edge, so a detail touching the edge does not count) carried inwards.
    static func borderBackground(_ t: Thumbnail) -> Thumbnail {
        let w = t.width, h = t.height
        func median(_ cells: [Int], _ channel: [Float]) -> Float {
            let v = cells.map { channel[$0] }.sorted()
            return v[v.count / 2]
        }
        func stretch(_ centre: Int, _ count: Int, _ cell: (Int) -> Int) -> [Int] {
            let reach = max(2, count / 12)
            return (max(0, centre - reach)...min(count - 1, centre + reach)).map(cell)
        }
        var edges: [[(Float, Float, Float)]] = []
        for side in 0..<4 {
            let count = side < 2 ? h : w
            edges.append((0..<count).map { k in
                let cells: [Int]
                switch side {
                case 0: cells = stretch(k, h) { $0 * w }
                case 1: cells = stretch(k, h) { $0 * w + w - 1 }
                case 2: cells = stretch(k, w) { $0 }
                default: cells = stretch(k, w) { (h - 1) * w + $0 }
                }
                return (median(cells, t.red), median(cells, t.green), median(cells, t.blue))
            })
        }
        // A Coons patch over the four edges: exact for a gradient in any direction, and each
        // edge counts the more the nearer it is.
        func corner(_ a: (Float, Float, Float), _ b: (Float, Float, Float)) -> (Float, Float, Float) {
            ((a.0 + b.0) / 2, (a.1 + b.1) / 2, (a.2 + b.2) / 2)
        }
        let c00 = corner(edges[0][0], edges[2][0]), c10 = corner(edges[1][0], edges[2][w - 1])
        let c01 = corner(edges[0][h - 1], edges[3][0]), c11 = corner(edges[1][h - 1], edges[3][w - 1])
        var r = [Float](repeating: 0, count: w * h), g = r, b = r
        for y in 0..<h {
            for x in 0..<w {
                let u = w > 1 ? Float(x) / Float(w - 1) : 0.5, v = h > 1 ? Float(y) / Float(h - 1) : 0.5
                func patch(_ k: KeyPath<(Float, Float, Float), Float>) -> Float {
                    let across = (1 - u) * edges[0][y][keyPath: k] + u * edges[1][y][keyPath: k]
                    let down = (1 - v) * edges[2][x][keyPath: k] + v * edges[3][x][keyPath: k]
                    let corners = (1 - u) * (1 - v) * c00[keyPath: k] + u * (1 - v) * c10[keyPath: k]
                        + (1 - u) * v * c01[keyPath: k] + u * v * c11[keyPath: k]
                    return min(1, max(0, across + down - corners))
                }
                r[y * w + x] = patch(\.0); g[y * w + x] = patch(\.1); b[y * w + x] = patch(\.2)
            }
        }
        return Thumbnail(width: w, height: h, red: r, green: g, blue: b)
    }

    /// How unlike the rest of the picture each cell's colour is: its distance to every other
    /// colour, weighed by how much of the picture has that colour, scaled to 0…1.
    static func colourRarity(_ t: Thumbnail) -> [Float] {
        let levels = 6, n = t.width * t.height
        func bin(_ i: Int) -> Int {
            func q(_ c: Float) -> Int { min(levels - 1, max(0, Int(c * Float(levels)))) }
            return (q(t.red[i]) * levels + q(t.green[i])) * levels + q(t.blue[i])
        }
        let bins = levels * levels * levels
        var count = [Float](repeating: 0, count: bins), mr = count, mg = count, mb = count
        var binOf = [Int](repeating: 0, count: n)
        for i in 0..<n {
            let k = bin(i)
            binOf[i] = k
            count[k] += 1; mr[k] += t.red[i]; mg[k] += t.green[i]; mb[k] += t.blue[i]
        }
        let present = (0..<bins).filter { count[$0] > 0 }
        for k in present { mr[k] /= count[k]; mg[k] /= count[k]; mb[k] /= count[k] }
        var score = [Float](repeating: 0, count: bins)
        for k in present {
            var s: Float = 0
            for j in present where j != k { s += count[j] / Float(n) * distance(mr[k], mg[k], mb[k], mr[j], mg[j], mb[j]) }
            score[k] = s
        }
        let top = present.map { score[$0] }.max() ?? 0
        return binOf.map { top > 0 ? score[$0] / top : 0 }
    }

    /// Edge strength (Sobel on luminance) averaged over each cell's neighbours, scaled so the
    /// strongest edges reach 1.
    static func edgeDensity(_ t: Thumbnail) -> [Float] {
        let w = t.width, h = t.height
        let luma = (0..<(w * h)).map { 0.299 * t.red[$0] + 0.587 * t.green[$0] + 0.114 * t.blue[$0] }
        var magnitude = [Float](repeating: 0, count: w * h)
        if w > 2, h > 2 {
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    func l(_ dx: Int, _ dy: Int) -> Float { luma[(y + dy) * w + x + dx] }
                    let gx = l(1, -1) + 2 * l(1, 0) + l(1, 1) - l(-1, -1) - 2 * l(-1, 0) - l(-1, 1)
                    let gy = l(-1, 1) + 2 * l(0, 1) + l(1, 1) - l(-1, -1) - 2 * l(0, -1) - l(1, -1)
                    magnitude[y * w + x] = (gx * gx + gy * gy).squareRoot()
                }
            }
        }
        let dense = blur(magnitude, width: w, height: h)
        let sorted = dense.sorted()
        let scale = sorted[min(sorted.count - 1, sorted.count * 95 / 100)]
        return dense.map { scale > 0 ? min(1, $0 / scale) : 0 }
    }

    /// The mean of each cell and its eight neighbours (those inside the grid).
    static func blur(_ v: [Float], width w: Int, height h: Int) -> [Float] {
        var out = v
        for y in 0..<h {
            for x in 0..<w {
                var s: Float = 0, c: Float = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let xx = x + dx, yy = y + dy
                        guard xx >= 0, xx < w, yy >= 0, yy < h else { continue }
                        s += v[yy * w + xx]; c += 1
                    }
                }
                out[y * w + x] = s / c
            }
        }
        return out
    }
}
