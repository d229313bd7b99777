import Foundation

/// What a decoded book still needs before it can be rendered. Decoding checks shapes; this checks
/// meaning (a text page with no text, an accent that is no colour, a path that leaves the folder).
public struct BookValidation: Sendable, Equatable {
    /// Each makes the book unrenderable; all of them are listed, in document order.
    public var errors: [BookIssue]
    /// Worth telling, not worth refusing the book for.
    public var warnings: [BookIssue]
    public var isValid: Bool { errors.isEmpty }
}

public enum BookValidator {
    public static func validate(_ book: Book) -> BookValidation {
        let found = check(book)
        return BookValidation(errors: found.errors.map(\.issue), warnings: found.warnings.map(\.issue))
    }

    /// The same checks with paths kept as components, so the loader can find their lines in the file.
    static func check(_ book: Book) -> Checks {
        var v = Checks()
        let root = PathBuilder()

        if book.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            v.error(root.key("title"), "the title is empty; a book needs a title (it is printed on the cover and in the PDF's metadata)")
        }
        if let language = book.language, !Self.isLanguageTag(language) {
            v.error(root.key("language"), "\"\(language)\" is not a language tag; write one like en, en-US, de or he")
        }
        if let created = book.created, BookDate.parse(created) == nil {
            v.error(root.key("created"), "\"\(created)\" is not an ISO 8601 date; write one like 2024-05-01 or 2024-05-01T12:00:00Z")
        }
        if let theme = book.theme, !Self.isThemeName(theme) {
            v.error(root.key("theme"), "\"\(theme)\" is not a theme name; it may only hold letters, digits, '.', '_' and '-'")
        }
        if let tokens = book.tokens, tokens.members == nil {
            v.error(root.key("tokens"), "expected an object of design tokens to override (\"palette\": {\"accent\": \"#7C5C3A\"})")
        }
        checkFormat(book.format, root.key("format"), &v)
        checkCover(book.cover, root.key("cover"), &v)
        checkImage(book.matter?.authorPhoto, root.key("matter").key("authorPhoto"), &v)
        checkImage(book.matter?.publisherLogo, root.key("matter").key("publisherLogo"), &v)
        checkCharacters(book.characters, root.key("characters"), &v)
        checkNarration(book.narration, pageCount: book.pages.count, root.key("narration"), &v)

        if book.pages.isEmpty {
            v.error(root.key("pages"), "a book needs at least one page")
        }
        var firstUse: [String: String] = [:]
        for (i, page) in book.pages.enumerated() {
            let path = root.key("pages").index(i)
            checkPage(page, path, &v)
            if let id = page.id {
                if let earlier = firstUse[id] {
                    v.error(path.key("id"), "id \"\(id)\" is already used by \(earlier); page ids must be unique")
                } else {
                    firstUse[id] = path.rendered
                }
            }
        }
        return v
    }

    // MARK: parts

    private static func checkFormat(_ format: BookFormat?, _ path: PathBuilder, _ v: inout Checks) {
        if let binding = format?.binding, binding != "left", binding != "right" {
            v.error(path.key("binding"), "\"\(binding)\" is no binding side; give \"left\" or \"right\" (or leave it out: the book's language decides)")
        }
        guard let trim = format?.trim else { return }
        switch trim {
        case .preset(let name):
            if name.trimmingCharacters(in: .whitespaces).isEmpty {
                v.error(path.key("trim"), "the trim size is empty; give a preset name (\"8.25x11\", \"a4\") or {\"width\": …, \"height\": …}")
            }
        case .size(let width, let height):
            if width.points <= 0 { v.error(path.key("trim").key("width"), "the trim width must be greater than zero") }
            if height.points <= 0 { v.error(path.key("trim").key("height"), "the trim height must be greater than zero") }
        }
    }

    private static func checkCover(_ cover: Cover?, _ path: PathBuilder, _ v: inout Checks) {
        guard let cover else { return }
        if let accent = cover.accent, !isHexColour(accent) {
            v.error(path.key("accent"), "\"\(accent)\" is not a colour; write it as #RRGGBB (\"#7C5C3A\")")
        }
        checkImage(cover.photo, path.key("photo"), &v)
        checkFocus(cover.focus, path.key("focus"), &v)
    }

    private static func checkCharacters(_ characters: Characters?, _ path: PathBuilder, _ v: inout Checks) {
        guard let characters else { return }
        if let main = characters.main {
            if isBlank(main.name) { v.error(path.key("main").key("name"), "the main character's name is empty") }
            checkImage(main.image, path.key("main").key("image"), &v)
        }
        for (i, c) in (characters.secondary ?? []).enumerated() where isBlank(c.name) {
            v.error(path.key("secondary").index(i).key("name"), "a character's name is empty")
        }
    }

    private static func checkPage(_ page: Page, _ path: PathBuilder, _ v: inout Checks) {
        for problem in page.content.payload.problems() {
            v.error(problem.field.map(path.key) ?? path, problem.message)
        }
        checkImage(page.picture?.image, path.key("image"), &v)
        checkFocus(page.picture?.focus, path.key("focus"), &v)

        // Fields a template never reads are likely meant for another page type.
        for field in page.unreadFields.keys.sorted() {
            v.warning(path.key(field), "\"\(field)\" is not used on a \(page.type.rawValue) page")
        }
    }

    private static func checkFocus(_ focus: PictureFocus?, _ path: PathBuilder, _ v: inout Checks) {
        for problem in focus?.problems() ?? [] { v.error(path.key(problem.key), problem.message) }
    }

    private static func checkImage(_ image: ImageRef?, _ path: PathBuilder, _ v: inout Checks) {
        switch image {
        case .path(let p):
            if let problem = ImagePath.problem(with: p) { v.error(path, problem) }
        case .inline(let data):
            if data.isEmpty { v.error(path, "the inline image is empty") }
        case nil:
            break
        }
    }

    // MARK: rules shared with the JSON Schema's patterns

    static func isHexColour(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 7 && u[0] == UInt8(ascii: "#") && u.dropFirst().allSatisfy { $0.isHexDigit }
    }

    static func isLanguageTag(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    static func isThemeName(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// A scheme, a colon and something after it: what a phone's camera app opens.
    static func isURL(_ s: String) -> Bool {
        guard !s.contains(where: \.isWhitespace), let colon = s.firstIndex(of: ":"), colon != s.startIndex,
              s.index(after: colon) != s.endIndex else { return false }
        let scheme = s[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return false }
        return URLComponents(string: s) != nil
    }

    private static func isBlank(_ s: String?) -> Bool { s.isBlank }
}

struct Checks: Sendable {
    var errors: [PathIssue] = []
    var warnings: [PathIssue] = []
    mutating func error(_ path: PathBuilder, _ message: String) { errors.append(PathIssue(path: path, message: message)) }
    mutating func warning(_ path: PathBuilder, _ message: String) { warnings.append(PathIssue(path: path, message: message)) }
}

private extension JSONValue {
    var members: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
