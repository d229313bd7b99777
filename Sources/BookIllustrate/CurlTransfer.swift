import Foundation
import CCurl

/// One HTTP exchange through libcurl (Debian's, with its proxy variables and CA certificates),
/// blocking the calling thread. libcurl rather than Foundation's URLSession (itself libcurl on
/// Linux, without control of `Expect: 100-continue`) or async-http-client (SwiftNIO and TLS
/// packages for a handful of requests).
enum CurlTransfer {
    struct Response {
        var status: Int
        /// The last response's header lines as received (after a redirect or a 100 Continue, only
        /// the final one's).
        var headerLines: String
        var body: Data
    }

    struct Failure: Error {
        var code: Int
        var message: String
        var timedOut: Bool
    }

    /// Before the first handle, once: not thread-safe in older libcurl.
    private static let initialized: CURLcode = curl_global_init(ccurl_global_default)

    static func perform(method: String, url: String, headers: [String], body: Data?, timeout: Double) -> Result<Response, Failure> {
        guard initialized == CURLE_OK else {
            return .failure(Failure(code: Int(initialized.rawValue), message: "curl_global_init failed", timedOut: false))
        }
        guard let handle = curl_easy_init() else {
            return .failure(Failure(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_easy_init failed", timedOut: false))
        }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        // No "Expect: 100-continue" wait before a large body.
        for line in headers + ["Expect:"] { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        let received = Received(), headerLines = Received(startsOverAtStatusLine: true)
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }

        let code: CURLcode = url.withCString { url in
            method.withCString { method in
                ccurl_setopt_pointer(handle, CURLOPT_URL, url)
                ccurl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, method)
                ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
                ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
                ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
                ccurl_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")
                ccurl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, Received.append)
                ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(received).toOpaque())
                ccurl_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, Received.append)
                ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, Unmanaged.passUnretained(headerLines).toOpaque())
                ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
                guard let body else { return curl_easy_perform(handle) }
                // A pointer even for an empty body: libcurl then sends Content-Length: 0.
                return body.withUnsafeBytes { bytes in
                    withUnsafePointer(to: 0 as UInt8) { empty in
                        ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(empty))
                        ccurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                        return curl_easy_perform(handle)
                    }
                }
            }
        }
        withExtendedLifetime((received, headerLines)) {}
        guard code == CURLE_OK else {
            let message = errorText[0] != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
            return .failure(Failure(code: Int(code.rawValue), message: message, timedOut: code == CURLE_OPERATION_TIMEDOUT))
        }
        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(Response(status: status, headerLines: String(decoding: headerLines.data, as: UTF8.self),
                                 body: received.data))
    }

    /// Bytes libcurl hands over, gathered.
    private final class Received {
        var data = Data()
        let startsOverAtStatusLine: Bool

        init(startsOverAtStatusLine: Bool = false) { self.startsOverAtStatusLine = startsOverAtStatusLine }

        static let append: curl_write_callback = { bytes, size, count, user in
            guard let user else { return 0 }
            let received = Unmanaged<Received>.fromOpaque(user).takeUnretainedValue()
            let length = size * count
            guard let bytes, length > 0 else { return length }
            let chunk = UnsafeRawBufferPointer(start: bytes, count: length)
            // A status line starts a new response (after a redirect or a 100 Continue).
            if received.startsOverAtStatusLine && chunk.starts(with: Array("HTTP/".utf8)) { received.data.removeAll() }
            received.data.append(contentsOf: chunk)
            return length
        }
    }
}
