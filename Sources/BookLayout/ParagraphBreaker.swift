/// Total-fit line breaking (Knuth and Plass, "Breaking Paragraphs into Lines", 1981) of one run of
/// text between two forced breaks, on widths measured beforehand: it chooses the breaks that
/// minimise the demerits of the whole paragraph rather than filling each line in turn.
///
/// The text is a row of positions (characters); `natural`, `stretch` and `shrink` are running
/// sums over them, so any line's measures cost two subtractions. A candidate says where a line may
/// end, where its content stops (spaces before a break are dropped) and what breaking there costs.
struct ParagraphBreaker {
    enum Kind: Equatable {
        /// After spaces.
        case space
        /// At a hyphenation point: a hyphen is drawn.
        case hyphen
        /// After a dash that is part of the text.
        case dash
        /// Inside a token such as a path or an address, after `/ . _ - ? & = #`, with no hyphen.
        case inToken
        /// Between two characters of a token too wide for any line; the last resort.
        case character
        /// The end of the run: its last line is set at its natural width.
        case end
    }

    struct Candidate: Equatable {
        /// The line ends before this position and the next starts at it.
        var position: Int
        /// The line's content ends here (before the spaces of a space break).
        var contentEnd: Int
        var kind: Kind
        /// Width added at the break (the hyphen's).
        var addedWidth: Double = 0
    }

    struct Parameters {
        /// Justified lines stretch and shrink their spaces; ragged ones keep them and leave the
        /// rest of the line empty, which is judged against `raggedStretch`.
        var justify = true
        var raggedStretch: Double = 0
        /// Largest stretch ratio of the pass that tries the paragraph without hyphenating a word
        /// (TeX's \pretolerance of 100: a ratio of 1, all the spaces' stretch); nil skips it.
        var pretolerance: Double? = 1
        /// Largest stretch ratio of the first pass (a ratio of 1 uses all the spaces' stretch).
        var tolerance: Double = 2
        var linePenalty: Double = 10
        var hyphenPenalty: Double = 50
        var dashPenalty: Double = 50
        /// Heavy: a name such as `requirements.txt` or an address reads best whole, so it is broken
        /// only where the line would otherwise be very loose (looser than all its stretch) or
        /// overfull.
        var inTokenPenalty: Double = 150
        var characterPenalty: Double = 1000
        var doubleHyphenDemerits: Double = 10_000
        /// A paragraph whose last line follows a hyphenated one ("rea-" over "son."). TeX's 5,000
        /// is lighter than one loose line here, and left such endings in one paragraph in seven
        /// of real prose; this weighs them as a line at TeX's tolerance (badness 200) does.
        var finalHyphenDemerits: Double = 50_000
        var adjacentFitnessDemerits: Double = 10_000
    }

    /// Running sums: `natural[i]` is the width of positions 0..<i, and so on.
    let natural: [Double]
    let stretch: [Double]
    let shrink: [Double]
    /// Where the run's first line starts.
    let start: Int
    /// Sorted by position, one per position; the last one is the run's `.end`.
    let candidates: [Candidate]
    /// Space breaks among the candidates before each index (and in all, at the end): whether a
    /// line holds a space costs one subtraction.
    private let spacesBefore: [Int]
    let firstLineWidth: Double
    let lineWidth: Double
    var parameters = Parameters()

    init(natural: [Double], stretch: [Double], shrink: [Double], start: Int, candidates: [Candidate],
         firstLineWidth: Double, lineWidth: Double, parameters: Parameters = Parameters()) {
        self.start = start
        self.natural = natural
        self.stretch = stretch
        self.shrink = shrink
        self.candidates = candidates
        var spaces = [0]
        spaces.reserveCapacity(candidates.count + 1)
        for candidate in candidates { spaces.append(spaces.last! + (candidate.kind == .space ? 1 : 0)) }
        self.spacesBefore = spaces
        self.firstLineWidth = firstLineWidth
        self.lineWidth = lineWidth
        self.parameters = parameters
    }

    /// The candidates chosen (indices into `candidates`), ending with the run's end. A first pass
    /// takes only lines within `tolerance`; when that finds no way through, an emergency pass takes
    /// any line that is not overfull, however loose (its demerits still grow with the cube of its
    /// stretch, so the looseness is spread over the paragraph); only when a piece wider than the
    /// line leaves no other way does a last pass break between characters and let such a piece out.
    func breaks() -> [Int] {
        // As TeX does: a paragraph that sets well without hyphenating any word is not hyphenated.
        // Hyphens taken only where they save a loose line are fewer, and so are paragraphs whose
        // last line is the rest of a hyphenated word's line.
        if parameters.pretolerance != nil, let found = search(pass: .unhyphenated) { return found }
        if let found = search(pass: .first) { return found }
        if let found = search(pass: .emergency) { return found }
        return search(pass: .last) ?? Array(candidates.indices)
    }

    private enum Pass { case unhyphenated, first, emergency, last }

    private struct Node {
        /// Index of the candidate the node breaks at; -1 for the run's start.
        var candidate: Int
        var position: Int
        var lineIndex: Int
        var fitness: Int
        var flagged: Bool
        var demerits: Double
        var previous: Int
    }

    /// A line's stretch ratio: 0 is natural, 1 uses all its stretch, -1 all its shrink; below -1
    /// it is overfull.
    func ratio(from start: Int, to candidate: Candidate, lineIndex: Int) -> Double {
        let available = lineIndex == 0 ? firstLineWidth : lineWidth
        let width = natural[candidate.contentEnd] - natural[start] + candidate.addedWidth
        let delta = available - width
        if candidate.kind == .end && delta >= 0 { return 0 }
        if delta >= 0 {
            // A justified line with nothing to stretch is set ragged. A piece of an address or
            // path (ending where such pieces end) is judged as a ragged line; a lone word or piece
            // of one that leaves much of its line empty reads as a paragraph's end, so it gets a
            // twentieth of that and is taken only as full as it can be.
            let spaces = parameters.justify ? stretch[candidate.contentEnd] - stretch[start] : 0
            let piece = candidate.kind == .inToken || candidate.kind == .dash
            let give = spaces > 0 ? spaces : parameters.justify && !piece ? parameters.raggedStretch / 20 : parameters.raggedStretch
            return give > 0 ? min(delta / give, 1000) : (delta == 0 ? 0 : 1000)
        }
        // A paragraph's last line is not justified, so it cannot shrink either.
        let take = parameters.justify && candidate.kind != .end ? shrink[candidate.contentEnd] - shrink[start] : 0
        return take > 0 ? max(delta / take, -2) : -2
    }

    static func fitness(_ r: Double) -> Int {
        if r < -0.5 { return 0 }
        if r <= 0.5 { return 1 }
        if r <= 1 { return 2 }
        return 3
    }

    private func penalty(_ kind: Kind) -> Double {
        switch kind {
        case .space, .end: return 0
        case .hyphen: return parameters.hyphenPenalty
        case .dash: return parameters.dashPenalty
        case .inToken: return parameters.inTokenPenalty
        case .character: return parameters.characterPenalty
        }
    }

    private static func flagged(_ kind: Kind) -> Bool { kind == .hyphen || kind == .dash }

    private func search(pass: Pass) -> [Int]? {
        var nodes = [Node(candidate: -1, position: start, lineIndex: 0, fitness: 1, flagged: false, demerits: 0, previous: -1)]
        // Two lists of active nodes, swapped at each candidate; the best way to end a line at the
        // candidate per fitness class: a paragraph has thousands of candidates, so nothing is
        // allocated per candidate.
        var active = [0], stillActive: [Int] = []
        var bestDemerits = (0.0, 0.0, 0.0, 0.0), bestNode = (-1, -1, -1, -1)
        for (index, candidate) in candidates.enumerated() {
            if candidate.kind == .character && pass != .last { continue }
            if pass == .unhyphenated && (candidate.kind == .hyphen || candidate.kind == .inToken) { continue }
            bestNode = (-1, -1, -1, -1)
            stillActive.removeAll(keepingCapacity: true)
            let p = penalty(candidate.kind), candidateFlagged = Self.flagged(candidate.kind)
            for a in active {
                let node = nodes[a]
                guard node.position < candidate.position else { stillActive.append(a); continue }
                let r = ratio(from: node.position, to: candidate, lineIndex: node.lineIndex)
                // Only the last pass takes a second hyphenated line in a row: when an earlier one
                // finds a way through, it has none.
                // Nor does it end a paragraph with the rest of a hyphenated word alone ("son."):
                // a line with no space of its own after a hyphen.
                let fragment = candidate.kind == .end && node.flagged && node.candidate >= 0
                    && spacesBefore[index] - spacesBefore[node.candidate + 1] == 0
                var feasible = r >= -1 && (pass != .first || r <= parameters.tolerance)
                    && (pass != .unhyphenated || r <= parameters.pretolerance ?? 0)
                    && (pass == .last || !(node.flagged && candidateFlagged) && !fragment)
                if r < -1 {
                    // Longer lines from this node are wider still. In the last pass a piece that
                    // fits no line goes out overfull from the node right before it.
                    if pass == .last && isFirstCandidate(after: node, index) { feasible = true }
                } else {
                    stillActive.append(a)
                }
                guard feasible else { continue }
                let badness = 100 * pow3(abs(max(r, -1)))
                var d = (parameters.linePenalty + badness) * (parameters.linePenalty + badness) + p * p
                let fit = Self.fitness(r)
                if node.flagged && candidateFlagged { d += parameters.doubleHyphenDemerits }
                if candidate.kind == .end && node.flagged { d += parameters.finalHyphenDemerits }
                if node.candidate >= 0 && abs(fit - node.fitness) > 1 { d += parameters.adjacentFitnessDemerits }
                let total = node.demerits + d
                switch fit {
                case 0: if bestNode.0 < 0 || total < bestDemerits.0 { bestDemerits.0 = total; bestNode.0 = a }
                case 1: if bestNode.1 < 0 || total < bestDemerits.1 { bestDemerits.1 = total; bestNode.1 = a }
                case 2: if bestNode.2 < 0 || total < bestDemerits.2 { bestDemerits.2 = total; bestNode.2 = a }
                default: if bestNode.3 < 0 || total < bestDemerits.3 { bestDemerits.3 = total; bestNode.3 = a }
                }
            }
            swap(&active, &stillActive)
            func add(_ fit: Int, from: Int, demerits: Double) {
                guard from >= 0 else { return }
                nodes.append(Node(candidate: index, position: candidate.position, lineIndex: nodes[from].lineIndex + 1,
                                  fitness: fit, flagged: candidateFlagged, demerits: demerits, previous: from))
                active.append(nodes.count - 1)
            }
            add(0, from: bestNode.0, demerits: bestDemerits.0)
            add(1, from: bestNode.1, demerits: bestDemerits.1)
            add(2, from: bestNode.2, demerits: bestDemerits.2)
            add(3, from: bestNode.3, demerits: bestDemerits.3)
            if active.isEmpty { return nil }
        }
        let last = candidates.count - 1
        var end = -1
        for n in nodes.indices where nodes[n].candidate == last && (end < 0 || nodes[n].demerits < nodes[end].demerits) { end = n }
        guard end >= 0 else { return nil }
        var chosen: [Int] = []
        var n = end
        while n > 0 {
            chosen.append(nodes[n].candidate)
            n = nodes[n].previous
        }
        return chosen.reversed()
    }

    /// No candidate of this pass lies between the node and candidate `index`.
    private func isFirstCandidate(after node: Node, _ index: Int) -> Bool {
        var i = index - 1
        while i >= 0 && candidates[i].position > node.position {
            if candidates[i].position < candidates[index].position { return false }
            i -= 1
        }
        return true
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}
