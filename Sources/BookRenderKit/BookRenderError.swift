import Foundation
import BookBase
import BookModel
import BookConfig
import BookResolve
import BookRender
import BookCompare
import BookIllustrate
import BookOrder

/// Why an operation of the library failed, as a value: what kind of failure (which a command line
/// maps to an exit code), the message a person reads, and the findings behind it.
public struct BookRenderError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// An option that makes no sense (a DPI out of range, a page range past the end).
        case invalidOptions
        /// The book, a theme, a profile or an image in it is invalid (or `strict` found a
        /// placeholder).
        case invalidBook
        /// An input cannot be read.
        case unreadableInput
        /// An output cannot be written (or would replace an input).
        case unwritableOutput
        /// Preflight found errors and the export was not forced.
        case preflightFailed
        /// Rendering failed for a reason of its own (cairo, a library, a picture cut short).
        case renderingFailed
        /// An image provider failed in a way that stops the generation step.
        case generationFailed
        /// The order cannot be placed as given: the printer refused it or its files, or the cover,
        /// the product or the address does not fit. Nothing was ordered.
        case orderRejected
        /// The printer could not be reached, failed past the retries, or refused the keys.
        case orderFailed
    }

    public var kind: Kind
    public var message: String
    /// The findings that explain the failure: every load problem of an invalid book, preflight's
    /// errors, the placeholder `strict` refused.
    public var diagnostics: [Diagnostic]

    public init(_ kind: Kind, _ message: String, diagnostics: [Diagnostic] = []) {
        self.kind = kind; self.message = message; self.diagnostics = diagnostics
    }

    public var description: String { message }

    /// sysexits(3) codes, so shell scripts and batch jobs can tell a bad book from a broken disk:
    /// 64 usage, 65 data, 66 no input, 73 cannot create, 70 software; 1 for preflight's errors.
    public var exitCode: Int32 {
        switch kind {
        case .invalidOptions: 64
        case .invalidBook, .orderRejected: 65
        case .unreadableInput: 66
        case .unwritableOutput: 73
        case .preflightFailed: 1
        case .renderingFailed, .generationFailed, .orderFailed: 70
        }
    }
}

extension BookRenderError {
    /// The typed error for whatever a stage threw.
    init(_ error: any Error) {
        switch error {
        case let e as BookRenderError:
            self = e
        case let e as BookError:
            self.init(e.kind == .io ? .unreadableInput : .invalidBook, e.description,
                      diagnostics: e.issues.map { Diagnostic($0, file: e.file, kind: e.kind) }
                        + e.warnings.map { Diagnostic(loadWarning: $0, file: e.file) })
        case let e as ResolveError:
            self.init(.invalidBook, e.message)
        case let e as ConfigError:
            self.init(.invalidBook, e.message, diagnostics: e.issues.map {
                Diagnostic(.error, stage: .load, kind: "validation", message: $0.message, file: $0.file, jsonPath: $0.jsonPath)
            })
        case let e as ImageError:
            self.init(e.kind == .writeFailed ? .unwritableOutput : .invalidBook, e.message)
        case let e as OutputError:
            self.init(.unwritableOutput, e.message)
        case let e as RenderError:
            self.init(.renderingFailed, e.message)
        case let e as PNGSizeError:
            self.init(.invalidOptions, e.message)
        case let e as CompareError:
            switch e.kind {
            case .unreadable: self.init(.unreadableInput, e.message)
            case .writeFailed: self.init(.unwritableOutput, e.message)
            case .invalidArgument: self.init(.invalidOptions, e.message)
            case .rasterizer: self.init(.renderingFailed, e.message)
            }
        case let e as IllustrateError:
            self.init(e.kind == .invalidOptions ? .invalidOptions : .generationFailed, e.message)
        case let e as OrderError:
            switch e.kind {
            case .invalidOptions: self.init(.invalidOptions, e.message)
            case .unreadableInput: self.init(.unreadableInput, e.message)
            case .rejected: self.init(.orderRejected, e.message)
            case .failed: self.init(.orderFailed, e.message)
            }
        default:
            self.init(.renderingFailed, "\(error)")
        }
    }

    /// Runs `body`, turning anything it throws into a `BookRenderError`.
    static func wrap<T>(_ body: () throws -> T) throws(BookRenderError) -> T {
        do { return try body() } catch { throw BookRenderError(error) }
    }
}
