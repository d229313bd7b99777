import Foundation
import Hummingbird

/// A request no route takes is answered as every error is, in JSON: 405 with the methods the
/// path takes (`Allow`) when the path is the API's, else 404.
struct RouteFallback<Context: RequestContext>: RouterMiddleware {
    /// The API's paths (`:x` one segment) and their methods.
    static var routes: [([String], [String])] {
        [(["healthz"], ["GET"]), (["metrics"], ["GET"]), (["v1", "jobs"], ["GET", "POST"]),
         (["v1", "jobs", ":id"], ["GET", "DELETE"]), (["v1", "jobs", ":id", "events"], ["GET"]),
         (["v1", "jobs", ":id", "pdf"], ["GET"]), (["v1", "jobs", ":id", "report"], ["GET"]),
         (["v1", "jobs", ":id", "pages", ":file"], ["GET"])]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
            if let allowed = Self.methods(for: segments) {
                var headers: HTTPFields = [:]
                headers[.allow] = allowed.joined(separator: ", ")
                let e = APIError(405, "methodNotAllowed", "\(ClientText.clipped(request.method.rawValue, to: 16)) is not taken on this path; it takes \(allowed.joined(separator: " and "))")
                return JSONReply.response(["error": ["code": e.code, "message": e.message]], status: 405, headers: headers)
            }
            return JSONReply.error(APIError(404, "noSuchRoute", "no route \(ClientText.clipped(request.uri.path, to: 100)); the API is under /v1/jobs (schema/serve.openapi.yaml)"))
        }
    }

    static func methods(for segments: [Substring]) -> [String]? {
        routes.first { pattern, _ in
            pattern.count == segments.count && zip(pattern, segments).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
        }?.1
    }
}
