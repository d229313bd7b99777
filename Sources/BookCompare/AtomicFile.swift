import Foundation
import BookBase

/// The base module's atomic writes, with failures as `CompareError`s so `compare` keeps one error type.
enum AtomicFile {
    static func write(to target: URL, _ body: (URL) throws(CompareError) -> Void) throws(CompareError) {
        do {
            try AtomicOutput.write(to: target) { temporary in try body(temporary) }
        } catch let error as CompareError {
            throw error
        } catch {
            throw CompareError(.writeFailed, "\(error)")
        }
    }

    static func write(_ data: Data, to target: URL) throws(CompareError) {
        try write(to: target) { (temporary: URL) throws(CompareError) in
            do {
                try data.write(to: temporary)
            } catch {
                throw CompareError(.writeFailed, "cannot write \(target.path): \(AtomicOutput.reason(error))")
            }
        }
    }

    static func write(_ image: RGBAImage, to target: URL) throws(CompareError) {
        try write(to: target) { (temporary: URL) throws(CompareError) in try image.writePNG(to: temporary) }
    }

    static func makeDirectory(_ url: URL) throws(CompareError) {
        do {
            try AtomicOutput.makeFolder(url)
        } catch {
            throw CompareError(.writeFailed, "\(error)")
        }
    }
}
