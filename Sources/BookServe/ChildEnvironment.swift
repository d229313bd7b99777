import Foundation

/// The environment a render child of the service runs with: the service's own, its scratch folder
/// as TMPDIR, and none of the secrets only the service uses (its bearer token, the printer's keys),
/// so a child that fails, dumps core or is traced has nothing of them to show. Picture providers'
/// keys stay: an export that fills missing pictures calls the provider itself.
enum ChildEnvironment {
    static let serviceSecrets = ["BOOKRENDER_SERVE_TOKEN", "LULU_CLIENT_KEY", "LULU_CLIENT_SECRET"]

    static func make(scratch: URL?, from service: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = service
        for name in serviceSecrets { environment[name] = nil }
        if let scratch { environment["TMPDIR"] = scratch.path }
        return environment
    }
}
