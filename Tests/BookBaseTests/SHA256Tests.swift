import Foundation
import Testing
import BookBase

/// The digest that names cache entries and batch fingerprints, checked against FIPS 180-2's
/// examples and against coreutils on a buffer large enough to take the CPU's SHA path block after
/// block.
@Suite struct SHA256Tests {
    @Test func standardVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func piecewiseEqualsWhole() throws {
        let data = DigestChecks.sample
        let h = SHA256()
        DigestChecks.feed(data, in: [1, 63, 64, 65, 4096, 1_000_000]) { h.update($0) }
        let whole = SHA256.hex(data)
        #expect(h.finish() == whole)
        #expect(try DigestChecks.printed(by: "/usr/bin/sha256sum", [], for: data) == whole)
    }
}
