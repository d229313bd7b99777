import Foundation
import Hummingbird
import NIOCore

/// JSON answers and the service's error shape.
enum JSONReply {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    static func encode<T: Encodable>(_ value: T) -> Data { (try? encoder.encode(value)) ?? Data("{}".utf8) }

    static func response<T: Encodable>(_ value: T, status: Int = 200, headers: HTTPFields = [:]) -> Response {
        data(encode(value), status: status, type: "application/json", headers: headers)
    }

    static func data(_ data: Data, status: Int = 200, type: String, headers: HTTPFields = [:]) -> Response {
        var h = headers
        h[.contentType] = type
        h[.contentLength] = "\(data.count)"
        return Response(status: .init(code: status), headers: h, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ e: APIError) -> Response {
        var headers: HTTPFields = [:]
        if e.status == 401 { headers[.wwwAuthenticate] = "Bearer realm=\"bookrender\"" }
        return response(["error": ["code": e.code, "message": e.message]], status: e.status, headers: headers)
    }
}
