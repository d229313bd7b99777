import Foundation
import CShim

/// SHA-256 as 64 lowercase hex digits: the generation cache and batch fingerprints.
public final class SHA256: HexDigest, OneCallDigest {
    public required init() {
        super.init(Hasher(new: { shim_sha256_new() }, update: { shim_sha256_update($0, $1, $2) },
                          finish: { shim_sha256_finish($0, $1) }, hexDigits: 64))
    }
}
