import Foundation

/// A book as bookrender's own `book.json` (schema version 1) describes it.
/// Importers turn the seed apps' persisted shapes into this same value.
public struct Book: Codable, Sendable, Equatable {
    public static let currentSchema = 1

    public var schema: Int
    public var kind: BookKind
    public var title: String
    public var subtitle: String?
    public var author: String?
    /// BCP 47 tag ("en-US", "de", "he"); drives hyphenation and font language matching.
    public var language: String?
    public var artStyle: String?
    /// ISO 8601; also the PDF's creation date, so output is reproducible.
    public var created: String?
    /// Theme name in `templates/` ("picture-book", "memoir"); default follows `kind`.
    public var theme: String?
    /// Partial design tokens merged over the theme's (any token may be overridden).
    public var tokens: JSONValue?
    public var format: BookFormat?
    public var cover: Cover?
    public var characters: Characters?
    /// Front and back matter: title and copyright pages, dedication, contents, "The End", about the author.
    public var matter: BookMatter?
    public var pages: [Page]
    /// The book read aloud, for the e-book's read-along.
    public var narration: Narration?

    public init(
        schema: Int = Book.currentSchema, kind: BookKind, title: String, subtitle: String? = nil,
        author: String? = nil, language: String? = nil, artStyle: String? = nil, created: String? = nil,
        theme: String? = nil, tokens: JSONValue? = nil, format: BookFormat? = nil, cover: Cover? = nil,
        characters: Characters? = nil, matter: BookMatter? = nil, pages: [Page], narration: Narration? = nil
    ) {
        self.schema = schema; self.kind = kind; self.title = title; self.subtitle = subtitle
        self.author = author; self.language = language; self.artStyle = artStyle; self.created = created
        self.theme = theme; self.tokens = tokens; self.format = format; self.cover = cover
        self.characters = characters; self.matter = matter; self.pages = pages; self.narration = narration
    }
}

public enum BookKind: String, Codable, Sendable, CaseIterable {
    case storybook, memoir
}

/// Trim size and margins. Lengths are strings with a unit ("8.25in", "210mm", "36pt") or bare points.
public struct BookFormat: Codable, Sendable, Equatable {
    /// A preset name ("8.25x11", "a4", "3:4", …) or an explicit size.
    public var trim: TrimSpec?
    public var margins: Margins?
    /// The side the pages are bound on: "left" or "right" (Arabic, Hebrew, Persian, Urdu and other
    /// books written right to left open the other way). Default: the language's.
    public var binding: String?
    /// true: the theme's page colour is printed on every interior page even for a printer, where
    /// it is otherwise the paper's (cream or white stock) and left unprinted.
    public var printBackground: Bool?
    public init(trim: TrimSpec? = nil, margins: Margins? = nil, binding: String? = nil, printBackground: Bool? = nil) {
        self.trim = trim; self.margins = margins; self.binding = binding; self.printBackground = printBackground
    }
}

public enum TrimSpec: Codable, Sendable, Equatable {
    case preset(String)
    case size(width: Length, height: Length)

    private enum CodingKeys: String, CodingKey { case width, height }

    public init(from decoder: Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = .preset(name)
            return
        }
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw DecodingError.typeMismatch(TrimSpec.self, .init(codingPath: decoder.codingPath,
                debugDescription: "expected a trim size: a preset name (\"8.25x11\", \"a4\") or {\"width\": …, \"height\": …}"))
        }
        self = .size(width: try c.decode(Length.self, forKey: .width), height: try c.decode(Length.self, forKey: .height))
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .preset(let name):
            var c = encoder.singleValueContainer(); try c.encode(name)
        case .size(let w, let h):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(w, forKey: .width); try c.encode(h, forKey: .height)
        }
    }
}

public struct Margins: Codable, Sendable, Equatable {
    public var top: Length?
    public var bottom: Length?
    /// The binding side (gutter).
    public var inner: Length?
    public var outer: Length?
    public init(top: Length? = nil, bottom: Length? = nil, inner: Length? = nil, outer: Length? = nil) {
        self.top = top; self.bottom = bottom; self.inner = inner; self.outer = outer
    }
}

public struct Cover: Codable, Sendable, Equatable {
    public var title: String?
    public var subtitle: String?
    /// "#RRGGBB".
    public var accent: String?
    public var photo: ImageRef?
    /// Where the cover picture's subject is; estimated from its pixels when absent.
    public var focus: PictureFocus?
    /// How the cover picture fills its area; the cover style's own way when absent.
    public var fit: PictureFit?
    /// The back cover's words: what the book is about, as a bookshop shows it.
    public var blurb: String?
    public init(title: String? = nil, subtitle: String? = nil, accent: String? = nil, photo: ImageRef? = nil,
                focus: PictureFocus? = nil, fit: PictureFit? = nil, blurb: String? = nil) {
        self.title = title; self.subtitle = subtitle; self.accent = accent; self.photo = photo
        self.focus = focus; self.fit = fit; self.blurb = blurb
    }
}

public struct Characters: Codable, Sendable, Equatable {
    public var main: MainCharacter?
    public var secondary: [SecondaryCharacter]?
    public init(main: MainCharacter? = nil, secondary: [SecondaryCharacter]? = nil) {
        self.main = main; self.secondary = secondary
    }
}

public struct MainCharacter: Codable, Sendable, Equatable {
    public var name: String
    public var description: String?
    /// The reference image every generated illustration must match.
    public var image: ImageRef?
    public init(name: String, description: String? = nil, image: ImageRef? = nil) {
        self.name = name; self.description = description; self.image = image
    }
}

public struct SecondaryCharacter: Codable, Sendable, Equatable {
    public var name: String
    /// "supporting" | "minor" | "creature" (free text is kept).
    public var role: String?
    public var appearance: Appearance
    public init(name: String, role: String? = nil, appearance: Appearance) {
        self.name = name; self.role = role; self.appearance = appearance
    }
}

public struct Appearance: Codable, Sendable, Equatable {
    public var age: String?
    public var hair: String?
    public var face: String?
    public var build: String?
    public var clothing: String?
    public var accessories: String?
    public var distinctive: String?
    public init(age: String? = nil, hair: String? = nil, face: String? = nil, build: String? = nil,
                clothing: String? = nil, accessories: String? = nil, distinctive: String? = nil) {
        self.age = age; self.hair = hair; self.face = face; self.build = build
        self.clothing = clothing; self.accessories = accessories; self.distinctive = distinctive
    }
}

/// An image: a path relative to the book's folder, or inline base64 bytes.
/// In JSON a plain string is a path (or a `data:` URL); `{"path": …}` and `{"base64": …}` are the long forms.
public enum ImageRef: Codable, Sendable, Equatable {
    case path(String)
    case inline(Data)

    private enum CodingKeys: String, CodingKey { case path, base64 }

    public init(from decoder: Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            if s.hasPrefix("data:") {
                guard let comma = s.firstIndex(of: ","), s[..<comma].hasSuffix(";base64"),
                      let data = Data(base64Encoded: String(s[s.index(after: comma)...]), options: .ignoreUnknownCharacters)
                else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                        debugDescription: "a data: URL must be base64 (data:image/jpeg;base64,…)"))
                }
                self = .inline(data)
            } else {
                self = .path(s)
            }
            return
        }
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw DecodingError.typeMismatch(ImageRef.self, .init(codingPath: decoder.codingPath,
                debugDescription: "expected an image: a path string, {\"path\": …} or {\"base64\": …}"))
        }
        if let p = try c.decodeIfPresent(String.self, forKey: .path) {
            self = .path(p)
        } else if let b = try c.decodeIfPresent(String.self, forKey: .base64) {
            guard let data = Data(base64Encoded: b, options: .ignoreUnknownCharacters) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: c, debugDescription: "not valid base64")
            }
            self = .inline(data)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "an image object needs \"path\" (relative to the book's folder) or \"base64\" (the bytes)"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .path(let p):
            var c = encoder.singleValueContainer(); try c.encode(p)
        case .inline(let d):
            var c = encoder.container(keyedBy: CodingKeys.self); try c.encode(d.base64EncodedString(), forKey: .base64)
        }
    }
}
