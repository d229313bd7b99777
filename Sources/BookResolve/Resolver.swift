import Foundation
import BookModel
import BookConfig

/// The resolve stage: theme and tokens, trim and margins, assets and placeholders.
public struct Resolver {
    public struct Options: Sendable {
        /// A theme name that replaces the book's own (`--theme`).
        public var theme: String?
        /// Missing images become errors instead of placeholders with a warning.
        public var strict: Bool
        /// A print profile from `templates/profiles/` (`--profile`): bleed, safety and gutter rules.
        public var profile: String?
        /// Threads that read and hash image files ahead of the pages (1: none ahead).
        public var threads: Int
        /// Pixels a picture may have (`InputLimits.maxImagePixels`), read from its header.
        public var maxImagePixels: Int
        /// Where pictures' analyses are kept between runs; nil analyses every picture afresh.
        public var analysisCache: PictureAnalysisCache?
        public init(theme: String? = nil, strict: Bool = false, profile: String? = nil,
                    threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxImagePixels: Int = InputLimits.defaultMaxImagePixels,
                    analysisCache: PictureAnalysisCache? = PictureAnalysisCache()) {
            self.theme = theme; self.strict = strict; self.profile = profile; self.threads = threads
            self.maxImagePixels = maxImagePixels; self.analysisCache = analysisCache
        }
    }

    public let templatesDirectory: URL
    public let options: Options

    public init(templatesDirectory: URL, options: Options = Options()) {
        self.templatesDirectory = templatesDirectory
        self.options = options
    }

    /// The design tokens the book is set with: its theme's, with the book's own overrides.
    public func tokens(for book: Book) throws -> DesignTokens {
        let name = themeName(for: book)
        // A theme the book names and that does not exist is the book's mistake, told at its place.
        if options.theme == nil, book.theme != nil, !Theme.available(in: templatesDirectory).contains(name) {
            do { _ = try Theme.load(named: name, from: templatesDirectory) } catch let error as ConfigError where error.issues.isEmpty {
                throw ConfigError("$.theme: \(error.message)")
            }
        }
        return try Theme.load(named: name, from: templatesDirectory).tokens(overriddenBy: book.tokens)
    }

    private func themeName(for book: Book) -> String {
        options.theme ?? book.theme ?? Theme.defaultName(for: book.kind)
    }

    public func resolve(_ book: Book, folder: URL) throws -> ResolvedBook {
        try resolve(book, folder: folder, tokens: try tokens(for: book))
    }

    /// `tokens`: what `tokens(for: book)` returned, for a caller that needed them first.
    public func resolve(_ book: Book, folder: URL, tokens: DesignTokens) throws -> ResolvedBook {
        let themeName = themeName(for: book)
        let language = book.language ?? ResolvedBook.defaultLanguage
        // Curled once here, so the pages, the PDF's outline and its metadata all read alike.
        let book = tokens.typography.smartQuotes ?? true ? QuoteMarks(language: language).curled(book) : book
        var tokens = tokens
        if let accentHex = book.cover?.accent {
            guard let accent = Color(hex: accentHex) else {
                throw ResolveError("$.cover.accent: \"\(accentHex)\" is not a colour; write #RRGGBB")
            }
            tokens.palette.accent = accent
        }
        let trim = try TrimSize.resolve(book.format?.trim, pageAspect: tokens.sizing.pageAspect)
        let profile = try options.profile.map {
            try PrintProfile.load(named: $0, from: templatesDirectory.appendingPathComponent("profiles"))
        }
        var margins = try resolveMargins(book.format?.margins, defaults: tokens.sizing.margins, trim: trim)
        if let profile { margins = margins.respecting(profile) }

        var findings: [Finding] = []
        let locator = AssetLocator(folder: folder, maxImagePixels: options.maxImagePixels, hashMemo: options.analysisCache?.hashes)

        func slot(_ ref: ImageRef?, jsonPath: String, sourcePage: Int?, wantsPicture: Bool, scene: String?) throws -> ImageSlot {
            guard let ref else {
                guard wantsPicture else { return .none }
                let what = scene.map { "placeholder drawn from its scene (\"\($0.prefix(60))\")" } ?? "placeholder drawn"
                findings.append(Finding(options.strict ? .error : .warning, .placeholder, sourcePage: sourcePage,
                                        "illustration not yet generated: \(what); add an image to the page to replace it"))
                return .placeholder(reason: "not yet generated")
            }
            switch try locator.load(ref, jsonPath: jsonPath) {
            case .found(let asset):
                return .asset(asset)
            case .missing(let path):
                findings.append(Finding(options.strict ? .error : .warning, .missingImage, sourcePage: sourcePage,
                                        "\(jsonPath): image file \"\(path)\" not found in \(folder.path)"
                                            + (options.strict ? "" : "; drawing a placeholder")))
                return .placeholder(reason: "missing file \(path)")
            }
        }

        let refs = book.pages.map { $0.picture?.image } + [book.characters?.main?.image, book.cover?.photo]
        if options.threads > 1 {
            locator.prefetch(refs.compactMap { if case .path(let p)? = $0 { return p } else { return nil } }, threads: options.threads)
        }

        // A picture on many pages is judged once: the same bytes give the same subject.
        var analyses: [String: PictureAnalysis] = [:]
        var character: CharacterColours?
        func analysis(of asset: ImageAsset) -> PictureAnalysis {
            if let known = analyses[asset.id] { return known }
            let made = Self.analyse(asset, estimating: false, cache: options.analysisCache)
            analyses[asset.id] = made
            return made
        }
        func subject(of asset: ImageAsset, focus: PictureFocus?) -> PictureSubject {
            var known = analysis(of: asset)
            if let focus { return .given(focus, thumbnail: known.thumbnail) }
            if let estimate = known.estimate { return estimate }
            known.estimate = Self.estimate(known.thumbnail, character: character)
            analyses[asset.id] = known
            return known.estimate!
        }

        var pageSlots: [ImageSlot] = []
        for (i, page) in book.pages.enumerated() {
            let picture = page.picture
            pageSlots.append(try slot(picture?.image, jsonPath: "$.pages[\(i)].image", sourcePage: i, wantsPicture: picture != nil,
                                      scene: picture?.scene))
        }

        var mainImage: ImageAsset?
        if let ref = book.characters?.main?.image {
            mainImage = try slot(ref, jsonPath: "$.characters.main.image", sourcePage: nil, wantsPicture: false, scene: nil).asset
        }
        // Learned before any picture is judged: every estimate looks for the character.
        if let mainImage, let reference = analysis(of: mainImage).thumbnail {
            character = CharacterColours(reference: reference, id: mainImage.id)
        }
        var coverImage = try slot(book.cover?.photo, jsonPath: "$.cover.photo", sourcePage: nil, wantsPicture: false, scene: nil)
        if case .none = coverImage, book.kind == .storybook, let mainImage {
            coverImage = .asset(mainImage)
        }
        if options.threads > 1 {
            // Every id reads its whole file: side by side, before the first is asked for below.
            let assets = (pageSlots.map(\.asset) + [coverImage.asset]).compactMap { $0 }
            DispatchQueue.concurrentPerform(iterations: assets.count) { _ = assets[$0].id }
        }
        // Pictures shown one way whatever they hold (a photo whole, its caption beside it) are not
        // analysed: their subject cannot matter.
        let analysed = Set(pageSlots.enumerated().compactMap { i, slot in
            slot.asset.flatMap { book.pages[i].picture?.placementHasChoice ?? true ? $0.id : nil }
        } + [coverImage.asset?.id].compactMap { $0 })
        if options.threads > 1 {
            // Each thumbnail decodes its whole picture (at an eighth of its size, but every byte of
            // a JPEG is still entropy-decoded): on a picture book that is most of a first export, so
            // they are made side by side. Each lands under its picture's id whatever the order.
            // Told apart by file here, not by id: an id hashes its file, which the side-by-side
            // jobs read anyway (two files with the same bytes are then decoded twice, to the same).
            var distinct: [(ImageAsset, Bool)] = []
            var seen = Set<String>()
            // The character's reference is analysed already; as the cover it needs no second look.
            if let mainImage { seen.insert(mainImage.file.map { "file:" + $0.path } ?? "id:" + mainImage.id) }
            let focusOf = Dictionary(pageSlots.enumerated().compactMap { i, slot in
                slot.asset.map { ($0.file.map { "file:" + $0.path } ?? "id:" + $0.id, book.pages[i].picture?.focus == nil) }
            } + [coverImage.asset.map { ($0.file.map { "file:" + $0.path } ?? "id:" + $0.id, book.cover?.focus == nil) }].compactMap { $0 },
                                      uniquingKeysWith: { $0 || $1 })
            for asset in (pageSlots.map(\.asset) + [coverImage.asset]).compactMap({ $0 }) {
                let key = asset.file.map { "file:" + $0.path } ?? "id:" + asset.id
                if seen.insert(key).inserted { distinct.append((asset, focusOf[key] ?? true)) }
            }
            for (id, made) in Self.analyses(of: distinct, wanted: analysed, cache: options.analysisCache, character: character) {
                analyses[id] = made
            }
        }
        let pages = pageSlots.enumerated().map { i, s in
            ResolvedPage(index: i, page: book.pages[i], image: s,
                         subject: s.asset.flatMap { analysed.contains($0.id) ? subject(of: $0, focus: book.pages[i].picture?.focus) : nil })
        }
        var coverSubject = coverImage.asset.map { subject(of: $0, focus: book.cover?.focus) }
        // A picture book without a cover picture shows its strongest page picture, as a designer
        // would pick it, before the main character's reference sheet.
        if book.cover?.photo == nil, book.kind == .storybook, let strongest = CoverPick.strongest(pages) {
            coverImage = strongest.image
            coverSubject = strongest.subject
        }
        let cover = ResolvedCover(title: book.cover?.title ?? book.title,
                                  subtitle: book.cover?.subtitle ?? book.subtitle,
                                  author: book.author, accent: tokens.palette.accent, image: coverImage,
                                  subject: coverSubject)
        for page in pages {
            guard let subject = page.subject, let asset = page.image.asset else { continue }
            findings += SubjectDoubtFinding.finding(subject, picture: asset.origin, owner: "the page", sourcePage: page.index)
        }
        if let subject = cover.subject, let asset = cover.image.asset {
            findings += SubjectDoubtFinding.finding(subject, picture: asset.origin, owner: "the cover", sourcePage: nil)
        }

        let errors = findings.filter { $0.severity == .error }
        if !errors.isEmpty {
            throw ResolveError(errors.map(\.located).joined(separator: "\n")
                + "\n(--strict: add the images, or export without --strict to draw placeholders)")
        }

        let (bookFonts, fontFindings) = BookFonts.scan(locator.root)
        findings += fontFindings

        if options.threads > 1 {
            // In the order the PDF draws them: the cover first, then the pages'.
            let drawn = ([cover.image.asset] + pages.map(\.image.asset) + [mainImage]).compactMap { $0 }
            ImageAsset.hashAhead(drawn, threads: options.threads - 1)
        }
        // A thumbnail is made by the same decoder, just as strict, as the picture check uses; a
        // picture not analysed here may have been checked by an earlier run.
        var decoded = Set<String>()
        for asset in ([cover.image.asset] + pages.map(\.image.asset)).compactMap({ $0 }) where asset.info.format == .jpeg {
            let known: PictureAnalysis? = analyses[asset.id] ?? options.analysisCache?.read(asset.id)
            if known?.decodes == true { decoded.insert(asset.id) }
        }
        if options.threads > 1 {
            Thumbnail.labAhead(([cover.subject] + pages.map(\.subject)).compactMap { $0?.thumbnail })
        }
        var resolved = ResolvedBook(book: book, folder: folder, themeName: themeName, tokens: tokens, trim: trim,
                                    margins: margins, profile: profile, language: language, cover: cover,
                                    mainCharacterImage: mainImage, pages: pages, bookFonts: bookFonts,
                                    findings: findings, decodedPictures: decoded, analysisCache: options.analysisCache)
        // Only a printed cover's back shows them; one that cannot be found is left off it.
        for (ref, path, keyPath) in [(book.matter?.authorPhoto, "$.matter.authorPhoto", \ResolvedBook.authorPhoto),
                                     (book.matter?.publisherLogo, "$.matter.publisherLogo", \ResolvedBook.publisherLogo)] {
            guard let ref else { continue }
            switch try locator.load(ref, jsonPath: path) {
            case .found(let asset):
                resolved[keyPath: keyPath] = asset
            case .missing(let file):
                resolved.findings.append(Finding(options.strict ? .error : .warning, .missingImage,
                                                 "\(path): image file \"\(file)\" not found in \(folder.path); the cover's back is set without it"))
            }
        }
        return resolved
    }

    /// The analyses of the `wanted` ones among `assets` (each with whether its estimate is needed)
    /// by id, read from `cache` or made side by side (as many at once as the machine has processors).
    static func analyses(of assets: [(ImageAsset, Bool)], wanted: Set<String>,
                         cache: PictureAnalysisCache?, character: CharacterColours? = nil) -> [String: PictureAnalysis] {
        /// Each iteration writes its own element only.
        struct Results: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<PictureAnalysis?> }
        let made = Results(buffer: .allocate(capacity: assets.count))
        made.buffer.initialize(repeating: nil)
        defer { made.buffer.deinitialize(); made.buffer.deallocate() }
        DispatchQueue.concurrentPerform(iterations: assets.count) { i in
            let (asset, estimating) = assets[i]
            // A picture whose subject cannot matter is left alone.
            guard wanted.contains(asset.id) else { return }
            made.buffer[i] = analyse(asset, estimating: estimating, cache: cache, character: character)
        }
        var byID: [String: PictureAnalysis] = [:]
        for (i, (asset, _)) in assets.enumerated() {
            if let analysis = made.buffer[i] { byID[asset.id] = analysis }
        }
        return byID
    }

    /// `asset`'s analysis, with its estimate when `estimating`: from `cache` when it holds one,
    /// else made (its thumbnail from `known` when given) and kept there. A picture that does not
    /// decode is not kept: the next run tries it again, and reports it.
    /// The estimate depends on the book's main character as well as on the picture, so it is
    /// kept in an entry of its own for the two (a re-export pays for neither).
    static func analyse(_ asset: ImageAsset, estimating: Bool, cache: PictureAnalysisCache?,
                        known: PictureAnalysis? = nil, character: CharacterColours? = nil) -> PictureAnalysis {
        let cacheable = cache != nil && asset.id.utf8.count == 32
        if estimating, cacheable, let kept = cache!.readEstimated(asset.id, character: character?.id),
           known == nil || known?.thumbnail == kept.thumbnail {
            return kept
        }
        var analysis = known ?? (cacheable ? cache!.read(asset.id) : nil)
        // An entry from a decoding check alone has no thumbnail.
        if known == nil, analysis?.thumbnail == nil { analysis = nil }
        if analysis == nil {
            // Reading the picture to decode it also gives its id (see `ImageAsset.readBytes`).
            let thumbnail = Thumbnail.make(asset)
            let made = PictureAnalysis(decodes: thumbnail != nil && asset.info.format == .jpeg, thumbnail: thumbnail)
            if cacheable, thumbnail != nil { cache!.write(made, for: asset.id) }
            analysis = made
        }
        var result = analysis!
        result.estimate = estimating ? estimate(result.thumbnail, character: character) : nil
        if estimating, cacheable, result.thumbnail != nil {
            cache!.writeEstimated(result, for: asset.id, character: character?.id)
        }
        return result
    }

    /// The subject the book gives, or else the one its pixels show.
    static func subject(of asset: ImageAsset, focus: PictureFocus?, character: CharacterColours? = nil) -> PictureSubject {
        let thumbnail = Thumbnail.make(asset)
        if let focus { return .given(focus, thumbnail: thumbnail) }
        return estimate(thumbnail, character: character)
    }

    /// The subject the pixels show; a picture that no longer decodes is taken whole (drawing reports it).
    static func estimate(_ thumbnail: Thumbnail?, character: CharacterColours?) -> PictureSubject {
        guard let thumbnail else {
            return PictureSubject(box: .whole, centre: (0.5, 0.5), source: .estimated,
                                  weights: PictureSubject.uniformWeights(in: .whole, width: 1, height: 1), grid: (1, 1), thumbnail: nil)
        }
        return SubjectEstimator.estimate(thumbnail, character: character)
    }

    /// A margin may take at most a third of the page, so some room is left for text; one that
    /// would take more is refused where it was written, not narrowed behind the user's back.
    private func resolveMargins(_ m: Margins?, defaults d: TokenMargins, trim: TrimSize) throws(ResolveError) -> ResolvedMargins {
        var problems: [String] = []
        func margin(_ side: String, _ own: Length?, _ theme: Length, _ extent: Double) -> Double {
            let value = (own ?? theme).points
            let path = own == nil ? "$.tokens.sizing.margins.\(side)" : "$.format.margins.\(side)"
            if own != nil, !Self.bookMarginRange.contains(value) {
                problems.append("\(path): \(value) pt is outside the allowed range 0–288 pt (4 in)")
            } else if value > extent / 3 {
                problems.append("\(path): \(value) pt is more than a third of the page (\((extent / 3).rounded()) pt); use a smaller margin or a larger trim")
            }
            return value
        }
        let resolved = ResolvedMargins(top: margin("top", m?.top, d.top, trim.height),
                                       bottom: margin("bottom", m?.bottom, d.bottom, trim.height),
                                       inner: margin("inner", m?.inner, d.inner, trim.width),
                                       outer: margin("outer", m?.outer, d.outer, trim.width))
        guard problems.isEmpty else { throw ResolveError(problems.joined(separator: "\n")) }
        return resolved
    }

    /// The same range as the theme's margin tokens (`TokenRanges`).
    static let bookMarginRange: ClosedRange<Double> = 0...288
}
