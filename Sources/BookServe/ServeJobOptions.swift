import Foundation
import BookRenderKit

/// What a client may ask of one job: the `bookrender export` options that make sense over the
/// network. Paths and provider addresses are the server's own, never the client's.
public struct ServeJobOptions: Codable, Sendable, Equatable {
    public var theme: String?
    public var profile: String?
    /// Page PNGs as well as the PDF (default true).
    public var png: Bool?
    public var dpi: Double?
    /// Render page 1 alone first, so its PNG can be fetched before the rest is done (default: true
    /// when PNGs are made and no print profile is named, which takes whole books only).
    public var firstPage: Bool?
    public var strict: Bool?
    /// Generate the missing illustrations first (`export --fill-missing`).
    public var fillMissing: Bool?
    public var provider: String?
    public var model: String?
    public var maxImages: Int?
    public var resolution: String?
    /// Only the first this many pages, marked as a preview (`export --preview`): PNGs at 96 dpi
    /// unless `dpi` says otherwise, and a small PDF.
    public var preview: Int?

    public init() {}

    var wantsPNG: Bool { png ?? true }
    var wantsFirstPage: Bool { wantsPNG && profile == nil && preview == nil && (firstPage ?? true) }
    var pngDPI: Double { dpi ?? (preview == nil ? 150 : 96) }

    /// Options from query parameters (`?theme=…&dpi=…&fillMissing=true`).
    static func fromQuery(_ items: [String: String]) throws(APIError) -> ServeJobOptions {
        var o = ServeJobOptions()
        func bool(_ key: String) throws(APIError) -> Bool? {
            guard let v = items[key] else { return nil }
            switch v.lowercased() {
            case "true", "1", "yes", "": return true
            case "false", "0", "no": return false
            default: throw APIError(400, "invalidOption", "\(key)=\(v): use true or false")
            }
        }
        func number(_ key: String) throws(APIError) -> Double? {
            guard let v = items[key] else { return nil }
            guard let d = Double(v) else { throw APIError(400, "invalidOption", "\(key)=\(v): give a number") }
            return d
        }
        o.theme = items["theme"]; o.profile = items["profile"]; o.model = items["model"]
        o.provider = items["provider"]; o.resolution = items["resolution"]
        o.png = try bool("png"); o.firstPage = try bool("firstPage"); o.strict = try bool("strict"); o.fillMissing = try bool("fillMissing")
        o.dpi = try number("dpi")
        o.maxImages = try number("maxImages").map { Int($0) }
        if let n = try number("preview") {
            guard n == n.rounded(), n >= 1, n <= 1000 else { throw APIError(400, "invalidOption", "preview=\(items["preview"]!): give a number of pages") }
            o.preview = Int(n)
        }
        return o
    }

    /// The fields set here replace those of `base`.
    func over(_ base: ServeJobOptions) -> ServeJobOptions {
        var o = base
        o.theme = theme ?? o.theme; o.profile = profile ?? o.profile; o.png = png ?? o.png; o.firstPage = firstPage ?? o.firstPage; o.dpi = dpi ?? o.dpi
        o.strict = strict ?? o.strict; o.fillMissing = fillMissing ?? o.fillMissing; o.provider = provider ?? o.provider
        o.model = model ?? o.model; o.maxImages = maxImages ?? o.maxImages; o.resolution = resolution ?? o.resolution
        o.preview = preview ?? o.preview
        return o
    }

    func validated() throws(APIError) -> ServeJobOptions {
        func name(_ key: String, _ v: String?) throws(APIError) {
            guard let v else { return }
            let ok = !v.isEmpty && v.count <= 64 && v.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
                && !v.hasPrefix(".")
            guard ok else { throw APIError(400, "invalidOption", "\(key) \"\(v)\" is not a name; give a theme or profile name from templates/, such as kdp") }
        }
        try name("theme", theme)
        try name("profile", profile)
        if firstPage == true, profile != nil {
            throw APIError(400, "invalidOption", "firstPage renders page 1 alone, which a print profile does not allow; leave firstPage out with a profile")
        }
        if let dpi, !(10...1200).contains(dpi) { throw APIError(400, "invalidOption", "dpi must be between 10 and 1200") }
        if let provider, ProviderName(rawValue: provider) == nil {
            throw APIError(400, "invalidOption", "provider must be one of \(ProviderName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let resolution, IllustrationResolution(rawValue: resolution) == nil {
            throw APIError(400, "invalidOption", "resolution must be preview or print")
        }
        if let preview {
            guard preview >= 1 else { throw APIError(400, "invalidOption", "preview shows at least 1 page") }
            guard profile == nil else { throw APIError(400, "invalidOption", "preview is for a screen; leave the profile out") }
        }
        if let maxImages, maxImages < 0 { throw APIError(400, "invalidOption", "maxImages must not be negative") }
        if let model { try name("model", model) }
        if fillMissing != true, provider != nil || model != nil || maxImages != nil || resolution != nil {
            throw APIError(400, "invalidOption", "provider, model, maxImages and resolution go with fillMissing=true")
        }
        return self
    }
}
