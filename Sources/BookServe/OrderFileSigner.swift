import Foundation
import BookBase

/// Addresses through which the printer downloads one order's files without the service's bearer
/// token: `/v1/order-files/JOB/FILE?order=REF&expires=T&signature=HMAC`. The signature covers the
/// job, the file, the order's reference and the expiry, under a key only the service holds (kept
/// in the data folder, readable by its owner alone), so an address works for that job's file of
/// that order until it expires, and for nothing else.
struct OrderFileSigner: Sendable {
    let key: Data

    static let files = ["interior.pdf", "cover.pdf"]

    /// The service's key, made once (32 random bytes) and kept across restarts, so addresses
    /// given to the printer stay good while it works.
    static func load(dataFolder: URL) throws -> OrderFileSigner {
        let url = dataFolder.appendingPathComponent("order-files.key")
        if let data = FileManager.default.contents(atPath: url.path), data.count == 32 { return OrderFileSigner(key: data) }
        var bytes = [UInt8](repeating: 0, count: 32)
        var g = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &g) }
        let data = Data(bytes)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            // Another start made it first: read theirs.
            if errno == EEXIST, let existing = FileManager.default.contents(atPath: url.path), existing.count == 32 { return OrderFileSigner(key: existing) }
            throw APIError(500, "internal", "cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard data.withUnsafeBytes({ write(fd, $0.baseAddress, 32) }) == 32 else {
            throw APIError(500, "internal", "cannot write \(url.path)")
        }
        return OrderFileSigner(key: data)
    }

    private func signature(job: String, file: String, order: String, expires: Int) -> Data {
        HMAC.sha256(key: key, message: Data("\(job)\n\(file)\n\(order)\n\(expires)".utf8))
    }

    func url(base: String, job: String, file: String, order: String, expires: Int) -> URL? {
        var c = URLComponents(string: base + "/v1/order-files/\(job)/\(file)")
        c?.queryItems = [URLQueryItem(name: "order", value: order), URLQueryItem(name: "expires", value: "\(expires)"),
                         URLQueryItem(name: "signature", value: signature(job: job, file: file, order: order, expires: expires).map { String(format: "%02x", $0) }.joined())]
        return c?.url
    }

    enum Verdict: Equatable { case good, badSignature, expired }

    func check(job: String, file: String, order: String, expires: Int, signature given: String, now: Date = Date()) -> Verdict {
        let bytes = stride(from: 0, to: given.count - 1, by: 2).compactMap { i -> UInt8? in
            let start = given.index(given.startIndex, offsetBy: i)
            return UInt8(given[start...given.index(after: start)], radix: 16)
        }
        guard given.count == 64, bytes.count == 32,
              HMAC.same(Data(bytes), signature(job: job, file: file, order: order, expires: expires)) else { return .badSignature }
        return Double(expires) >= now.timeIntervalSince1970 ? .good : .expired
    }
}
