import Foundation

/// What the service says to a client.
enum ClientText {
    /// Text a client sent, put in a message: control characters shown as `?` and long text cut.
    static func clipped(_ text: some StringProtocol, to length: Int = 64) -> String {
        let shown = String(text.prefix(length).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        return text.count > length ? shown + "…" : shown
    }
}
