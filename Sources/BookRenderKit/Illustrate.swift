import Foundation
import BookIllustrate

public typealias IllustrateOptions = BookIllustrate.IllustrateOptions
public typealias IllustrateSummary = BookIllustrate.IllustrateSummary
public typealias ProviderName = BookIllustrate.ProviderName
public typealias ProviderSettings = BookIllustrate.ProviderSettings
public typealias IllustrationResolution = BookIllustrate.Resolution
public typealias RetryPolicy = BookIllustrate.RetryPolicy
public typealias IllustrationCache = BookIllustrate.IllustrationCache
public typealias IllustrationStatus = BookIllustrate.IllustrationStatus
public typealias IllustrationEvent = BookIllustrate.IllustrationEvent
public typealias IllustrationStop = BookIllustrate.IllustrationStop

/// The optional generation step: pictures for the pages that have none, the cover and page 1
/// first, the main character's reference sent with every call. Resumable (a journal beside the
/// book) and cached by content.
public enum Illustration {
    /// Fills the missing illustrations of the book at `url` and returns where the book with its
    /// pictures now is (the same file for a book.json, a new one beside an app's file).
    public static func run(bookAt url: URL, options: IllustrateOptions) throws(BookRenderError) -> IllustrateSummary {
        do { return try Illustrator.runBlocking(bookAt: url, options: options) } catch { throw BookRenderError(error) }
    }

    /// Each picture's state from the journal beside the book; no provider is called.
    public static func status(bookAt url: URL) throws(BookRenderError) -> IllustrationStatus {
        do { return try IllustrationStatus.read(bookAt: url) } catch { throw BookRenderError(error) }
    }
}
