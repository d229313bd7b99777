import Foundation

extension PrintProfile {
    /// A case-bound hardcover's cover sheet: printed larger than the panels by the part that wraps
    /// round the boards and is glued inside, over a spine whose width the printer gives as a table of
    /// page counts rather than a thickness per page.
    public struct CasewrapRule: Codable, Sendable, Equatable {
        /// Where the numbers were taken from, so they can be checked again when the printer revises them.
        public var source: String
        /// Beyond the trim on the top, bottom and outer edges: the board's overhang and the turn-in.
        public var wrapInches: Double
        /// The fewest interior pages the printer binds this way.
        public var minPages: Int
        /// Spine width by interior page count, smallest bracket first.
        public var spine: [SpineStep]

        public struct SpineStep: Codable, Sendable, Equatable {
            /// The last page count of the bracket (inclusive).
            public var maxPages: Int
            public var inches: Double
        }

        public init(source: String, wrapInches: Double, minPages: Int, spine: [SpineStep]) {
            self.source = source; self.wrapInches = wrapInches; self.minPages = minPages; self.spine = spine
        }
    }

    /// The hardcover spine in inches for `pages` interior pages.
    public func casewrapSpineWidth(pages: Int) throws -> Double {
        let casewrap = try casewrapRule()
        guard pages >= casewrap.minPages, let step = casewrap.spine.first(where: { pages <= $0.maxPages }) else {
            let most = casewrap.spine.last?.maxPages ?? 0
            throw ConfigError("\(name) binds a hardcover of \(casewrap.minPages)–\(most) interior pages, not \(pages)")
        }
        return step.inches
    }
}

/// How the cover is bound: round the interior's spine as a paperback, or over boards as a
/// case-bound hardcover.
public enum CoverBinding: String, Sendable, Codable, CaseIterable {
    case paperback, hardcover
}

extension PrintProfile {
    /// The spine in inches for `pages` interior pages on `paper`, bound as `binding`.
    public func spineWidth(pages: Int, paper: String, binding: CoverBinding) throws -> Double {
        switch binding {
        case .paperback: try spineWidth(pages: pages, paper: paper)
        case .hardcover: try casewrapSpineWidth(pages: pages)
        }
    }
}

extension PrintProfile {
    /// The interior page counts the printer binds as `binding`: a paperback's from `pages`, a
    /// hardcover's from its casewrap table (Lulu binds a hardcover from 24 pages, a paperback
    /// from 32).
    public func interiorPages(bound binding: CoverBinding) throws -> (min: Int?, max: Int?) {
        switch binding {
        case .paperback:
            return (pages.min, pages.max)
        case .hardcover:
            let casewrap = try casewrapRule()
            return (casewrap.minPages, casewrap.spine.last?.maxPages ?? pages.max)
        }
    }

    private func casewrapRule() throws -> CasewrapRule {
        guard let casewrap else {
            throw ConfigError("profile \(name) has no hardcover (casewrap) rule; use --binding paperback, or a profile such as lulu")
        }
        return casewrap
    }
}
