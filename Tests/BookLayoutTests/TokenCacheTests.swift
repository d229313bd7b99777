import Testing
@testable import BookLayout

@Suite struct TokenCacheTests {
    private func lookup(_ cache: TokenCache, _ key: String) -> String? {
        var out: [UInt8] = Array(">".utf8)
        var key = key
        let found = key.withUTF8 { cache.append($0, to: &out) }
        return found ? String(decoding: out.dropFirst(), as: UTF8.self) : nil
    }

    private func insert(_ cache: inout TokenCache, _ key: String, _ value: String) {
        var key = key, value = value
        key.withUTF8 { k in value.withUTF8 { v in cache.insert(k, v) } }
    }

    @Test func keepsEveryEntryAcrossGrowth() {
        var cache = TokenCache()
        // Far past the first table, so it grows several times; keys sharing prefixes and lengths.
        for i in 0..<5_000 { insert(&cache, "word\(i)", "w\u{00AD}ord\(i * 7)") }
        #expect(cache.count == 5_000)
        for i in stride(from: 0, to: 5_000, by: 37) { #expect(lookup(cache, "word\(i)") == "w\u{00AD}ord\(i * 7)") }
        #expect(lookup(cache, "word5000") == nil)
        #expect(lookup(cache, "word") == nil)
        #expect(lookup(cache, "word12x") == nil)
    }

    @Test func appendsAfterWhatIsAlreadyThere() {
        var cache = TokenCache()
        insert(&cache, "butter", "but\u{00AD}ter")
        var out = Array("bread and ".utf8)
        var key = "butter"
        #expect(key.withUTF8 { cache.append($0, to: &out) })
        #expect(String(decoding: out, as: UTF8.self) == "bread and but\u{00AD}ter")
    }

    @Test func startsOverPastItsLimit() {
        var cache = TokenCache(limit: 100)
        for i in 0..<100 { insert(&cache, "a\(i)", "\(i)") }
        #expect(cache.count == 100)
        insert(&cache, "b", "new")
        #expect(cache.count == 1)
        #expect(lookup(cache, "a5") == nil)
        #expect(lookup(cache, "b") == "new")
    }
}
