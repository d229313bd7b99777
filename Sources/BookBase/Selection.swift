extension Array where Element: Comparable {
    /// The element that `sorted()[k]` would give, found without sorting: quickselect (Hoare's
    /// FIND) with a median-of-three pivot, reordering the array in place. Layout takes medians of
    /// a few hundred values many times a page, where a full sort was most of the cost.
    /// A run that partitions badly (more rounds than twice the bits of the count) sorts what is
    /// left instead, so no input costs more than a sort.
    @inlinable
    public mutating func select(_ k: Int) -> Element {
        precondition(indices.contains(k), "select: \(k) is not an index of \(count) elements")
        var low = 0, high = count - 1
        var rounds = 0
        let limit = 2 * (Int.bitWidth - count.leadingZeroBitCount) + 4
        while high - low > 16 {
            rounds += 1
            if rounds > limit {
                self[low...high].sort()
                return self[k]
            }
            let mid = low + (high - low) / 2
            if self[mid] < self[low] { swapAt(mid, low) }
            if self[high] < self[low] { swapAt(high, low) }
            if self[high] < self[mid] { swapAt(high, mid) }
            let pivot = self[mid]
            var i = low, j = high
            while i <= j {
                while self[i] < pivot { i += 1 }
                while pivot < self[j] { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return self[k] }
        }
        self[low...high].sort()
        return self[k]
    }
}
