import Foundation
import Hummingbird

/// Every route but `/healthz` needs `Authorization: Bearer TOKEN` when the service has a token;
/// an order's file addresses and Lulu's webhook carry signatures of their own instead.
struct BearerAuth<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard let token, path != "/healthz", !OrderRoutes.openPrefixes.contains(where: path.hasPrefix) else {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization] else {
            return JSONReply.error(APIError(401, "unauthorized", "no Authorization header; send Authorization: Bearer TOKEN with the service's token"))
        }
        // The scheme's name is case-insensitive (RFC 7235); one or more spaces follow it.
        let scheme = header.prefix { $0 != " " }
        let given = scheme.lowercased() == "bearer" ? String(header.dropFirst(scheme.count).drop { $0 == " " }) : ""
        guard Self.same(given, token) else {
            return JSONReply.error(APIError(401, "unauthorized", "the bearer token is wrong; send the service's token"))
        }
        return try await next(request, context)
    }

    /// Compares in time that depends only on the lengths, so a caller cannot find the token byte by byte.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return diff == 0
    }
}
