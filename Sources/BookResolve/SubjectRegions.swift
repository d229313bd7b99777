import Foundation

/// The candidates for a picture's subject: the connected patches of cells that stand out, each
/// weighed by what a reader would make of it.
enum SubjectRegions {
    struct Region {
        /// Its cells, in reading order.
        var cells: [Int]
        /// How much it stands out (the sum of its cells' saliency above the threshold).
        var mass: Double
        /// Its mass weighed by what it looks like: the strongest candidate scores highest.
        var score: Double
        /// Its centre of mass in shares of the picture.
        var centre: (x: Double, y: Double)
        /// The share of its mass in the main character's colours (0 when the book has no reference picture).
        var character: Double
    }

    /// The patches of cells with weight in `excess` (touching, diagonals too), strongest first.
    static func find(_ excess: [Float], thumbnail t: Thumbnail, match: [Float]?) -> [Region] {
        let w = t.width, h = t.height
        var label = [Int](repeating: -1, count: w * h)
        var regions: [Region] = []
        for start in 0..<(w * h) where excess[start] > 0 && label[start] < 0 {
            var cells: [Int] = [], stack = [start]
            label[start] = regions.count
            while let i = stack.popLast() {
                cells.append(i)
                forEachNeighbour(of: i, width: w, height: h) { j in
                    if excess[j] > 0 && label[j] < 0 { label[j] = regions.count; stack.append(j) }
                }
            }
            cells.sort()
            regions.append(weigh(cells, excess: excess, label: label, index: regions.count, thumbnail: t, match: match))
        }
        // Where the character is found it is the subject: what is not in its colours, however
        // striking (a lit cottage, the moon), keeps only a little of its weight.
        let found = regions.filter { $0.cells.count >= Int((speck * Double(w * h)).rounded(.up)) }.map(\.character).max() ?? 0
        if found >= characterFound {
            for i in regions.indices {
                let likeness = regions[i].character / found
                regions[i].score *= max(unlikeKept, likeness * likeness)
            }
        }
        // Equal scores keep reading order, so the same picture always ranks the same way.
        return regions.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
    }

    /// Calls `body` with cell `i` and each of its eight neighbours inside the `width` × `height`
    /// grid (touching, diagonals too), row by row.
    static func forEachNeighbour(of i: Int, width w: Int, height h: Int, _ body: (Int) -> Void) {
        let x = i % w, y = i / w
        for yy in max(0, y - 1)...min(h - 1, y + 1) {
            for xx in max(0, x - 1)...min(w - 1, x + 1) { body(yy * w + xx) }
        }
    }

    /// A sun or moon: at least this bright (luma, 0…1) and brighter than what lies around it.
    static let skyBright: Float = 0.55
    /// What a sky shape keeps of its weight.
    static let skyKept = 0.005
    /// Patches of fewer cells than this share of the picture are specks (stars, flowers in a meadow).
    static let speck = 0.003
    /// The character counts as found in a picture when a patch holds this share of its mass in the
    /// character's colours; then a patch unlike it keeps at least `unlikeKept` of its score.
    static let characterFound = 0.15
    static let unlikeKept = 0.005

    static func weigh(_ cells: [Int], excess: [Float], label: [Int], index: Int, thumbnail t: Thumbnail,
                      match: [Float]?) -> Region {
        let w = t.width, h = t.height
        func luma(_ i: Int) -> Float { 0.299 * t.red[i] + 0.587 * t.green[i] + 0.114 * t.blue[i] }
        var mass = 0.0, sx = 0.0, sy = 0.0, light = 0.0, core = 0.0, matched = 0.0
        var x0 = w, x1 = 0, y0 = h, y1 = 0
        // Its own colour is its core's: the blur spreads its weight onto the sky around it.
        let peak = cells.map { excess[$0] }.max() ?? 0
        for i in cells {
            let m = Double(excess[i]), x = i % w, y = i / w
            mass += m
            sx += m * (Double(x) + 0.5); sy += m * (Double(y) + 0.5)
            if excess[i] >= peak / 2 { light += m * Double(luma(i)); core += m }
            if let match { matched += m * Double(match[i]) }
            x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
        }
        let centre = (x: sx / mass / Double(w), y: sy / mass / Double(h))
        // What lies just around it, for how much brighter it is.
        var around = 0.0, count = 0.0
        for y in max(0, y0 - 2)...min(h - 1, y1 + 2) {
            for x in max(0, x0 - 2)...min(w - 1, x1 + 2) where label[y * w + x] != index {
                around += Double(luma(y * w + x)); count += 1
            }
        }
        let ownLight = light / core, aroundLight = count > 0 ? around / count : ownLight
        func clamp(_ v: Double) -> Double { min(1, max(0, v)) }

        let bright = clamp((ownLight - Double(skyBright)) / 0.2) * clamp((ownLight - aroundLight + 0.05) / 0.15)
        let high = clamp((0.55 - centre.y) / 0.2)
        let aspect = Double(x1 + 1 - x0) / Double(y1 + 1 - y0)
        // Round within the thumbnail's coarseness: a disc of a few cells is seldom exactly square.
        let round = clamp((1.2 - abs(log(aspect))) / 0.8)
        let sky = bright * high * round
        // Figures stand on the ground: the top fifth counts half, from a little under a third on fully.
        let standing = 0.55 + 0.45 * clamp((centre.y - 0.2) / 0.25)
        let size = clamp(Double(cells.count) / (speck * Double(w * h)))
        let score = mass * (1 - (1 - skyKept) * sky) * standing * size
        return Region(cells: cells, mass: mass, score: score, centre: centre, character: match == nil ? 0 : matched / mass)
    }
}
