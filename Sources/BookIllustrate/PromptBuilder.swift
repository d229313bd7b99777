import Foundation
import BookModel

/// Builds prompts from named sections, so each part can be checked on its own and the order is fixed.
public struct PromptBuilder: Sendable {
    public enum Section: String, CaseIterable, Sendable {
        case scene, characters, consistencyGuide, styleReference, artStyle, aspectRatio, composition, noText, quality
    }

    public var book: Book

    public init(book: Book) { self.book = book }

    /// The page prompt, sections in `Section` order, blank lines between them.
    public func prompt(for job: IllustrationJob, hasCharacterReference: Bool, hasStyleReference: Bool) -> String {
        if job.kind == .character { return characterPrompt(aspect: job.aspect) }
        return sections(for: job, hasCharacterReference: hasCharacterReference, hasStyleReference: hasStyleReference)
            .map(\.text).joined(separator: "\n\n")
    }

    public func sections(for job: IllustrationJob, hasCharacterReference: Bool, hasStyleReference: Bool) -> [(section: Section, text: String)] {
        var out: [(Section, String)] = [(.scene, scene(for: job))]
        if let c = characters(hasReference: hasCharacterReference) { out.append((.characters, c)) }
        if let g = consistencyGuide() { out.append((.consistencyGuide, g)) }
        if hasStyleReference { out.append((.styleReference, styleReference(hasCharacterReference: hasCharacterReference))) }
        out.append((.artStyle, artStyle()))
        out.append((.aspectRatio, aspectRatio(job.aspect)))
        out.append((.composition, composition(for: job)))
        out.append((.noText, Self.noText))
        out.append((.quality, Self.quality))
        return out
    }

    func scene(for job: IllustrationJob) -> String {
        switch job.kind {
        case .cover:
            var s = "SCENE: The front cover illustration of the children's book \"\(book.title)\"."
            // The plan gives the cover the subtitle it will show as its scene.
            let subtitle = job.scene.trimmingCharacters(in: .whitespaces)
            if !subtitle.isEmpty { s += " \(subtitle)" + (subtitle.hasSuffix(".") ? "" : ".") }
            return s
        default:
            return "SCENE (\(job.label)): \(job.scene)"
        }
    }

    func characters(hasReference: Bool) -> String? {
        guard let main = book.characters?.main else { return nil }
        var s = "MAIN CHARACTER: \(main.name)"
        if let d = main.description, !d.isEmpty { s += " — \(d)" }
        if hasReference {
            s += "\nThe first reference image shows \(main.name). Draw \(main.name) exactly as in that image: same face, proportions, colours and clothing."
        }
        return s
    }

    /// Roger's guide, word for word, so books made by the app and by bookrender prompt alike.
    public func consistencyGuide() -> String? {
        guard let secondary = book.characters?.secondary, !secondary.isEmpty else { return nil }
        var lines = ["CHARACTER CONSISTENCY GUIDE - Use these EXACT descriptions for secondary characters:", ""]
        for c in secondary {
            lines.append("[\(c.name.uppercased())]")
            let a = c.appearance
            let fields: [(String, String?)] = [("Age", a.age), ("Hair", a.hair), ("Face", a.face), ("Build", a.build),
                                               ("Clothing", a.clothing), ("Accessories", a.accessories), ("Distinctive", a.distinctive)]
            for (name, value) in fields {
                if let v = value?.trimmingCharacters(in: .whitespaces), !v.isEmpty { lines.append("• \(name): \(v)") }
            }
            lines.append("")
        }
        lines.append("CRITICAL: These characters MUST look IDENTICAL on every page. Do not change their appearance.")
        return lines.joined(separator: "\n")
    }

    func styleReference(hasCharacterReference: Bool) -> String {
        let which = hasCharacterReference ? "The second reference image" : "The reference image"
        return "STYLE REFERENCE: \(which) is the first page of this book. Match its art style, palette, line work and lighting; do not copy its composition."
    }

    func artStyle() -> String {
        let style = book.artStyle ?? (book.kind == .storybook ? "Kid's Book" : "Realistic")
        let detail: String
        switch style.lowercased() {
        case "kid's book", "kids book", "kid’s book":
            detail = "a warm children's picture-book illustration, soft shapes, gentle textures, bright friendly colours"
        case "cartoon":
            detail = "a clean colourful cartoon with bold outlines and flat shading"
        case "realistic":
            detail = "a realistic painterly illustration with natural light and believable detail"
        default:
            detail = style
        }
        return "ART STYLE: \(style) — \(detail). Keep the same style on every page."
    }

    func aspectRatio(_ aspect: AspectRatio) -> String {
        let orientation = aspect.isPortrait ? "VERTICAL portrait orientation" : aspect.isLandscape ? "HORIZONTAL landscape orientation" : "square"
        return "ASPECT RATIO: \(aspect.gemini) (\(orientation)); fill the whole frame, no borders."
    }

    /// Where the layout will set words on the picture and where the fold falls, so the art leaves
    /// room for them: the words stand over a quiet part of the art (the head of a portrait or
    /// square page, the head or a side of a landscape one), a spread is folded down its middle,
    /// and a subject near an edge is cut by the trim.
    func composition(for job: IllustrationJob) -> String {
        let landscape = job.aspect.isLandscape
        let quiet = landscape ? "the upper third or the left or right third" : "the upper third"
        var lines: [String] = []
        switch job.kind {
        case .cover:
            lines.append("Keep \(quiet) quiet (open sky, a plain wall or ground, no figure or detail there): the title is set there.")
        case .page where isSpread(job):
            lines.append("This picture spans two facing pages folded down its middle: no figure, face or important detail in the middle tenth.")
            lines.append("Keep \(quiet) of each half quiet (open sky, plain ground): the words are set there.")
        case .page where hasWords(job):
            lines.append("Keep \(quiet) quiet (open sky, plain ground, a flat wall; no figure or detail there): the page's words are set there.")
        default:
            break
        }
        lines.append("Keep every figure whole and at least a tenth of the picture's width and height away from its edges: the edges are trimmed.")
        return "COMPOSITION: " + lines.joined(separator: " ")
    }

    private func page(_ job: IllustrationJob) -> Page? {
        job.pageIndex.flatMap { book.pages.indices.contains($0) ? book.pages[$0] : nil }
    }

    private func isSpread(_ job: IllustrationJob) -> Bool {
        if case .spread? = page(job)?.content { return true }
        return false
    }

    private func hasWords(_ job: IllustrationJob) -> Bool {
        switch page(job)?.content {
        case .illustration(let p)?: return !(p.text ?? "").isEmpty || !(p.caption ?? "").isEmpty
        default: return false
        }
    }

    static let noText = "NO TEXT: Do not draw any text, letters, words, numbers, captions or signatures in the image."
    static let quality = "QUALITY: Print quality for a picture book: sharp, clean edges, consistent lighting, no artefacts, no watermark."

    /// Roger's character prompt, for making the main character's reference from a photo of the child.
    public func characterPrompt(aspect: AspectRatio) -> String {
        let name = book.characters?.main?.name ?? "the child"
        var s = "Create a VERTICAL PORTRAIT-ORIENTED colorful cartoon illustration of this child named \(name) for a children's storybook. The illustration should be in 3:4 aspect ratio (portrait orientation). Make it friendly and cheerful with bright, vibrant colors and a simple background. No text or words on the image."
        if let d = book.characters?.main?.description, !d.isEmpty { s += "\n\n\(name): \(d)" }
        return s
    }
}
