/// Byte strings mapped to byte strings, for the hyphenator's words: a book says a few thousand
/// words a hundred thousand times, so a lookup copies nothing and allocates nothing. Keys and
/// values lie back to back in two arenas; the table (open addressing, linear probing) holds where.
struct TokenCache {
    private struct Slot {
        var hash: UInt64
        var key: Int32, keyLength: Int32
        var value: Int32, valueLength: Int32
    }

    private var keys: [UInt8] = []
    private var values: [UInt8] = []
    /// A power of two long; `keyLength` -1 marks an empty slot.
    private var slots: [Slot]
    private(set) var count = 0
    /// Past this many entries (or arenas past 2 GiB) the cache starts over.
    let limit: Int

    init(limit: Int = 100_000) {
        self.limit = limit
        slots = Self.emptySlots(1024)
    }

    private static func emptySlots(_ n: Int) -> [Slot] {
        [Slot](repeating: Slot(hash: 0, key: 0, keyLength: -1, value: 0, valueLength: 0), count: n)
    }

    /// FNV-1a: the same on every run (output never depends on it, but profiles and tests do not
    /// wander), and quick on words of a few bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// Appends the value kept for `key` to `out`; false when there is none.
    func append(_ key: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        let h = Self.hash(key)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        return slots.withUnsafeBufferPointer { slots in
            while slots[i].keyLength >= 0 {
                let slot = slots[i]
                if slot.hash == h && Int(slot.keyLength) == key.count {
                    let same = keys.withUnsafeBufferPointer { stored in
                        var k = 0, at = Int(slot.key)
                        while k < key.count && stored[at + k] == key[k] { k += 1 }
                        return k == key.count
                    }
                    if same {
                        values.withUnsafeBufferPointer {
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[Int(slot.value)..<Int(slot.value + slot.valueLength)]))
                        }
                        return true
                    }
                }
                i = (i + 1) & mask
            }
            return false
        }
    }

    /// Keeps `value` for `key`, which must not be kept yet.
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        if count >= limit || keys.count + key.count >= Int(Int32.max) || values.count + value.count >= Int(Int32.max) {
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            slots = Self.emptySlots(slots.count)
            count = 0
        }
        if (count + 1) * 2 > slots.count { grow() }
        let slot = Slot(hash: Self.hash(key), key: Int32(keys.count), keyLength: Int32(key.count),
                        value: Int32(values.count), valueLength: Int32(value.count))
        keys.append(contentsOf: key)
        values.append(contentsOf: value)
        place(slot)
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: slot.hash) & mask
        while slots[i].keyLength >= 0 { i = (i + 1) & mask }
        slots[i] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = Self.emptySlots(old.count * 2)
        for slot in old where slot.keyLength >= 0 { place(slot) }
    }
}
