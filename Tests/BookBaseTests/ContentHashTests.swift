import Foundation
import Testing
import BookBase

/// The hash that names images and digests PDF content: XXH3-128 as xxhsum prints it, the same
/// whether fed whole or in parts.
@Suite struct ContentHashTests {
    @Test func knownValues() {
        #expect(ContentHash.hex("") == "99aa06d3014798d86001c324468d497f")
        #expect(ContentHash.hex("abc") == "06b05ab6733a618578af5f94892f3950")
        #expect(ContentHash.hex("abd") != ContentHash.hex("abc"))
    }

    @Test func piecewiseEqualsWholeAndXXHSum() throws {
        // Past 240 bytes XXH3 switches to its striped loop, past 1 KiB to whole blocks: cross both.
        let data = DigestChecks.sample
        let h = ContentHash()
        DigestChecks.feed(data, in: [1, 239, 240, 241, 1023, 1025, 65_536, 1_000_000]) { h.update($0) }
        let whole = ContentHash.hex(data)
        #expect(h.finish() == whole)
        #expect(try DigestChecks.printed(by: "/usr/bin/xxhsum", ["-H2"], for: data) == whole)
    }
}
