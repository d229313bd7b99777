import Foundation
import CShim

/// XXH3-128 as 32 lowercase hex digits: an image's id, which dedups it in the PDF and keys its
/// decodes, and the digest of a PDF's content that its `/ID` is made from. Fed in parts.
/// Also the digest of the renderer's executable in batch fingerprints. SHA-256 stays where a
/// name must hold against someone forging it (the generation cache, the rest of a fingerprint);
/// here a collision could only mix up two pictures of the one book made to collide, and the
/// speed is what an export of a picture book's JPEGs waits for.
public final class ContentHash: HexDigest, OneCallDigest {
    public required init() {
        super.init(Hasher(new: { shim_xxh3_new() }, update: { shim_xxh3_update($0, $1, $2) },
                          finish: { shim_xxh3_finish($0, $1) }, hexDigits: 32))
    }
}
