import Foundation
import BookTestSupport

/// One `bookrender serve` for the tests that send requests and read the answers without needing a
/// service of their own: started by the first test that asks, stopped when the test process ends.
/// Its limits are the defaults but for the texts, small enough to pass with a body of a megabyte.
enum SharedServe {
    static let maxTextLength = 200_000
    static let maxBookTextLength = 500_000

    private static let started: Result<ServeProcess, any Error> = Result {
        let data = try temporaryDirectory("serve-shared").appendingPathComponent("data")
        let server = try ServeProcess(data: data, arguments: ["--workers", "2",
                                                              "--max-text-length", "\(maxTextLength)",
                                                              "--max-book-text-length", "\(maxBookTextLength)"])
        SharedServeExit.register(server)
        return server
    }

    static var server: ServeProcess { get throws { try started.get() } }
}

/// Ends the shared service with the test process (a static is never deinitialised) and removes its data.
private enum SharedServeExit {
    nonisolated(unsafe) static var pid: pid_t = 0
    nonisolated(unsafe) static var folder: [CChar] = []

    static func register(_ server: ServeProcess) {
        pid = server.process.processIdentifier
        folder = Array(server.data.deletingLastPathComponent().path.utf8CString)
        atexit {
            if SharedServeExit.pid > 0 { kill(SharedServeExit.pid, SIGKILL) }
            let path = SharedServeExit.folder.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

/// A small book that renders in a moment: one text page.
func tinyBook(title: String = "Tiny", text: String = "A short page.") -> [String: Any] {
    ["schema": 1, "kind": "storybook", "title": title, "pages": [["type": "text", "text": text]]]
}

func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]) }
