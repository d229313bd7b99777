import Foundation

/// The JSON every command prints with `--json` (and writes with `--report`): its own fields, and
/// beside them `version` (of the shape `schema/report.schema.json` publishes), `command` and
/// `producer`. Findings, where a command has them, are `Diagnostic`s under `findings`.
public struct CommandReport<Body: Encodable>: Encodable {
    /// Raised when a field changes meaning or goes away; fields may be added within a version.
    public static var version: Int { 1 }

    public var command: String
    public var body: Body
    public var producer: Producer

    public init(command: String, _ body: Body, producer: Producer = .current()) {
        self.command = command; self.body = body; self.producer = producer
    }

    private enum Keys: String, CodingKey { case version, command, producer }

    public func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(Self.version, forKey: .version)
        try c.encode(command, forKey: .command)
        try c.encode(producer, forKey: .producer)
    }

    /// Pretty, sorted JSON, as `JSONOutput` writes every report.
    public func jsonData() throws -> Data { try JSONOutput.encode(self) }
}
