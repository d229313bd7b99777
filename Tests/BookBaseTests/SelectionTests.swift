import Testing
import BookBase

/// `select(k)` gives what `sorted()[k]` gives, for every k, on the inputs that make a quickselect
/// slow or wrong: runs already in order or reversed, all alike, few distinct values, organ pipes.
@Suite struct SelectionTests {
    static func random(_ count: Int, seed: UInt64, distinct: Int) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int(state >> 33) % distinct) / 7
        }
    }

    static var inputs: [[Float]] {
        var all: [[Float]] = [[1], [2, 1], [3, 3, 1], Array(repeating: 0.5, count: 300)]
        for count in [17, 18, 100, 513, 3072] {
            all.append((0..<count).map(Float.init))
            all.append((0..<count).reversed().map(Float.init))
            all.append((0..<count).map { Float(min($0, count - $0)) })
            all.append(random(count, seed: UInt64(count), distinct: 1_000_000))
            all.append(random(count, seed: UInt64(count) + 1, distinct: 3))
        }
        return all
    }

    @Test func everyPositionIsTheSortedOne() {
        for input in Self.inputs {
            let sorted = input.sorted()
            let positions = input.count <= 120 ? Array(input.indices) : [0, 1, input.count / 3, input.count / 2, input.count - 2, input.count - 1]
            for k in positions {
                var v = input
                #expect(v.select(k) == sorted[k], "\(input.count) values, position \(k)")
                #expect(v.sorted() == sorted, "the values are only reordered")
            }
        }
    }
}
