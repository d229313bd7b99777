import Foundation

/// One book to render: where it is, where its PDF goes, and the export options that apply to it.
public struct BatchJob: Sendable, Equatable, Codable {
    /// Stable name of the job in events and summaries: the manifest line ("line 7") or the book's
    /// path relative to the folder given.
    public var id: String
    /// Position in the manifest (0-based); sharding deals jobs out by it.
    public var index: Int
    public var input: String
    public var output: String
    public var profile: String?
    public var options: JobOptions

    public init(id: String, index: Int, input: String, output: String, profile: String? = nil, options: JobOptions = .init()) {
        self.id = id; self.index = index; self.input = input; self.output = output
        self.profile = profile; self.options = options
    }
}

/// The `bookrender export` flags a manifest line may set, besides input, output and profile.
public struct JobOptions: Sendable, Equatable, Codable {
    public var theme: String?
    public var strict: Bool?
    public var force: Bool?
    public var png: String?
    public var dpi: Double?
    public var spreads: Bool?
    public var pages: String?

    public init(theme: String? = nil, strict: Bool? = nil, force: Bool? = nil, png: String? = nil,
                dpi: Double? = nil, spreads: Bool? = nil, pages: String? = nil) {
        self.theme = theme; self.strict = strict; self.force = force; self.png = png
        self.dpi = dpi; self.spreads = spreads; self.pages = pages
    }

    /// The flags for `bookrender export`, in a fixed order so the fingerprint of a job is stable.
    public func arguments(profile: String?) -> [String] {
        var a: [String] = []
        if let profile { a += ["--profile", profile] }
        if let theme { a += ["--theme", theme] }
        if strict == true { a.append("--strict") }
        if force == true { a.append("--force") }
        if let png { a += ["--png", png] }
        if let dpi { a += ["--dpi", String(dpi)] }
        if spreads == true { a.append("--spreads") }
        if let pages { a += ["--pages", pages] }
        return a
    }
}

public struct BatchError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// A mistake in what the batch was asked to do (a manifest key that does nothing), not an
    /// input that cannot be read: a usage error.
    public var usage: Bool
    public init(_ message: String, usage: Bool = false) { self.message = message; self.usage = usage }
    public var description: String { message }
}
