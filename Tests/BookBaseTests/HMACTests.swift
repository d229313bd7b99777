import Foundation
import Testing
import BookBase

/// HMAC-SHA-256 against RFC 4231's test cases.
@Suite struct HMACTests {
    @Test(arguments: [
        (String(repeating: "0b", count: 20), Data("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Data("Jefe".utf8).map { String(format: "%02x", $0) }.joined(), Data("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        // A key longer than the block is hashed first (case 6).
        (String(repeating: "aa", count: 131), Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func rfc4231(_ keyHex: String, _ message: Data, _ expected: String) {
        let key = Data(stride(from: 0, to: keyHex.count, by: 2).map { i in
            UInt8(keyHex[keyHex.index(keyHex.startIndex, offsetBy: i)...keyHex.index(keyHex.startIndex, offsetBy: i + 1)], radix: 16)!
        })
        #expect(HMAC.sha256Hex(key: key, message: message) == expected)
    }

    @Test func comparisonNeedsEveryByteAndTheLength() {
        let a = Data([1, 2, 3, 4])
        #expect(HMAC.same(a, Data([1, 2, 3, 4])))
        #expect(!HMAC.same(a, Data([1, 2, 3, 5])))
        #expect(!HMAC.same(a, Data([1, 2, 3])))
        #expect(!HMAC.same(a, Data([1, 2, 3, 4, 0])))
    }
}
