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
    /// Writes the PDF although the print profile's preflight finds errors (`export --force`).
    public var force: Bool?
    /// Only the first this many pages, marked as a preview (`export --preview`): PNGs at 96 dpi
    /// unless `dpi` says otherwise, and a small PDF.
    public var preview: Int?

    public init() {}

    var wantsPNG: Bool { png ?? true }
    var wantsFirstPage: Bool { wantsPNG && profile == nil && preview == nil && (firstPage ?? true) }
    var pngDPI: Double { dpi ?? (preview == nil ? 150 : 96) }

    /// Every option's name, as query parameters and the envelope's `options` spell them.
    static let names = CodingKeys.allCases.map(\.rawValue)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case theme, profile, png, dpi, firstPage, strict, fillMissing, provider, model, maxImages, resolution, force, preview
    }

    /// Decoded by type: a misspelt or unknown option is refused by name, not ignored.
    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where CodingKeys(rawValue: key.stringValue) == nil {
            throw OptionProblem.unknown(key.stringValue)
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        theme = try c.decodeIfPresent(String.self, forKey: .theme)
        profile = try c.decodeIfPresent(String.self, forKey: .profile)
        png = try c.decodeIfPresent(Bool.self, forKey: .png)
        dpi = try c.decodeIfPresent(Double.self, forKey: .dpi)
        firstPage = try c.decodeIfPresent(Bool.self, forKey: .firstPage)
        strict = try c.decodeIfPresent(Bool.self, forKey: .strict)
        fillMissing = try c.decodeIfPresent(Bool.self, forKey: .fillMissing)
        provider = try c.decodeIfPresent(String.self, forKey: .provider)
        model = try c.decodeIfPresent(String.self, forKey: .model)
        if let n = try c.decodeIfPresent(Double.self, forKey: .maxImages) {
            guard n == n.rounded(), abs(n) < 1e9 else { throw OptionProblem.wrongType(.maxImages) }
            maxImages = Int(n)
        }
        resolution = try c.decodeIfPresent(String.self, forKey: .resolution)
        force = try c.decodeIfPresent(Bool.self, forKey: .force)
        if let n = try c.decodeIfPresent(Double.self, forKey: .preview) {
            guard n == n.rounded(), n >= 1, n <= Self.previewPages else { throw OptionProblem.wrongType(.preview) }
            preview = Int(n)
        }
    }

    /// The most pages a preview shows.
    static let previewPages = 1000.0

    enum OptionProblem: Error {
        case unknown(String)
        case wrongType(CodingKeys)
    }

    /// The envelope's `options` object, decoded by type; `path` names it in messages (`$.options`).
    static func decode(_ json: Data, at path: String) throws(APIError) -> ServeJobOptions {
        do {
            return try JSONDecoder().decode(ServeJobOptions.self, from: json)
        } catch let OptionProblem.unknown(name) {
            throw unknownOption("\(path).\(ClientText.clipped(name))", name)
        } catch let OptionProblem.wrongType(key) {
            throw APIError(400, "invalidOption", "\(path).\(key.rawValue): expected \(expected(key) ?? "another value")")
        } catch let error as DecodingError {
            throw APIError(400, "invalidOption", "\(path)\(Self.describe(error))")
        } catch {
            throw APIError(400, "invalidOption", "\(path) is not an object of job options")
        }
    }

    static func unknownOption(_ place: String, _ name: String) -> APIError {
        var message = "\(place) is not a job option; the options are \(names.joined(separator: ", "))"
        if name.count <= 64, let near = Spelling.nearest(to: name, among: names) { message = "\(place) is not a job option; did you mean \(near)? The options are \(names.joined(separator: ", "))" }
        return APIError(400, "unknownOption", message)
    }

    private static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\(ClientText.clipped($0.stringValue))" }.joined()
        }
        switch error {
        case .typeMismatch(let type, let context):
            let key = context.codingPath.last.flatMap { CodingKeys(rawValue: $0.stringValue) }
            return "\(place(context.codingPath)): expected \(expected(key) ?? "\(type)")"
        case .valueNotFound(_, let context):
            return "\(place(context.codingPath)): a value is missing"
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)).\(key.stringValue) is missing"
        case .dataCorrupted(let context):
            let key = context.codingPath.last.flatMap { CodingKeys(rawValue: $0.stringValue) }
            if let expected = expected(key) { return "\(place(context.codingPath)): expected \(expected)" }
            return "\(place(context.codingPath)) is not an object of job options"
        @unknown default:
            return " is not an object of job options"
        }
    }

    private static func expected(_ key: CodingKeys?) -> String? {
        switch key {
        case .theme?, .profile?, .provider?, .model?, .resolution?: return "a string"
        case .png?, .firstPage?, .strict?, .fillMissing?, .force?: return "true or false"
        case .dpi?: return "a number"
        case .maxImages?: return "a whole number"
        case .preview?: return "a number of pages, from 1 to \(Int(previewPages))"
        case nil: return nil
        }
    }

    /// Options from query parameters (`?theme=…&dpi=…&fillMissing=true`); a parameter that is no
    /// option is refused by name.
    static func fromQuery(_ items: [(String, String)]) throws(APIError) -> ServeJobOptions {
        var given: [String: String] = [:]
        for (key, value) in items {
            guard CodingKeys(rawValue: key) != nil else { throw unknownOption("the query parameter \(ClientText.clipped(key))", key) }
            guard given[key] == nil else { throw APIError(400, "invalidOption", "the query parameter \(key) is given twice; give it once") }
            given[key] = value
        }
        var o = ServeJobOptions()
        func bool(_ key: String) throws(APIError) -> Bool? {
            guard let v = given[key] else { return nil }
            switch v.lowercased() {
            case "true", "1", "yes", "": return true
            case "false", "0", "no": return false
            default: throw APIError(400, "invalidOption", "\(key)=\(ClientText.clipped(v)): use true or false")
            }
        }
        func number(_ key: String) throws(APIError) -> Double? {
            guard let v = given[key] else { return nil }
            guard let d = Double(v), d.isFinite else { throw APIError(400, "invalidOption", "\(key)=\(ClientText.clipped(v)): give a number") }
            return d
        }
        o.theme = given["theme"]; o.profile = given["profile"]; o.model = given["model"]
        o.provider = given["provider"]; o.resolution = given["resolution"]
        o.png = try bool("png"); o.firstPage = try bool("firstPage"); o.strict = try bool("strict"); o.fillMissing = try bool("fillMissing")
        o.force = try bool("force")
        o.dpi = try number("dpi")
        if let v = given["maxImages"] {
            guard let n = Int(v) else { throw APIError(400, "invalidOption", "maxImages=\(ClientText.clipped(v)): give a whole number") }
            o.maxImages = n
        }
        if let n = try number("preview") {
            guard n == n.rounded(), n >= 1, n <= previewPages else {
                throw APIError(400, "invalidOption", "preview=\(ClientText.clipped(given["preview"]!)): give a number of pages, from 1 to \(Int(previewPages))")
            }
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
        o.force = force ?? o.force
        o.preview = preview ?? o.preview
        return o
    }

    func validated() throws(APIError) -> ServeJobOptions {
        func name(_ key: String, _ v: String?) throws(APIError) {
            guard let v else { return }
            let ok = !v.isEmpty && v.count <= 64 && v.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
                && !v.hasPrefix(".")
            guard ok else {
                throw APIError(400, "invalidOption", "\(key) \"\(ClientText.clipped(v))\" is not a name; names hold letters, digits, '-', '_' and '.'")
            }
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

/// Any key of a JSON object, to see which keys it has.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
