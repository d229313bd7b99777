import Foundation
import Testing
import BookTestSupport
@testable import BookLayout

private let shy = "\u{00AD}"

@Suite struct HyphenatorTests {
    @Test func englishWordsSplitAtDictionaryPoints() throws {
        let english = try #require(Hyphenator(language: "en"))
        #expect(english.breakPoints(in: "hyphenation") == [2, 6])
        #expect(english.hyphenate("hyphenation") == "hy\(shy)phen\(shy)ation")
        #expect(english.hyphenate("internationalization") == ["in", "ter", "na", "tion", "al", "iza", "tion"].joined(separator: shy))
        #expect(english.hyphenate("Extraordinarily") == ["Ex", "traor", "di", "nar", "ily"].joined(separator: shy))
    }

    @Test func germanNonASCIIWordsSplitAtCharacterBoundaries() throws {
        // hyph_de_DE.dic is ISO8859-1, not UTF-8: "Ü" must be looked up as one byte.
        let german = try #require(Hyphenator(language: "de-DE"))
        #expect(german.hyphenate("Überraschung") == "Über\(shy)ra\(shy)schung")
        #expect(german.hyphenate("ÄRGERLICHES").replacingOccurrences(of: shy, with: "") == "ÄRGERLICHES")
        #expect(german.hyphenate("ÄRGERLICHES").contains(shy))
        let word = "Donaudampfschifffahrtsgesellschaftskapitän"
        let result = german.hyphenate(word)
        #expect(result.replacingOccurrences(of: shy, with: "") == word)
        #expect(result.components(separatedBy: shy).count > 5)
    }

    @Test func frenchUTF8WordsKeepTheirAccentsAndCombiningMarks() throws {
        let french = try #require(Hyphenator(language: "fr"))
        let composed = french.hyphenate("développement")
        #expect(composed == ["dé", "ve", "lop", "pe", "ment"].joined(separator: shy))
        // The same word with decomposed accents: a break never separates "e" from U+0301.
        let decomposed = "de\u{301}veloppement"
        let result = french.hyphenate(decomposed)
        #expect(result.replacingOccurrences(of: shy, with: "") == decomposed)
        #expect(result.contains(shy))
        let scalars = Array(result.unicodeScalars)
        for (i, scalar) in scalars.enumerated() where scalar == "\u{00AD}" && i + 1 < scalars.count {
            #expect(scalars[i + 1].properties.generalCategory != .nonspacingMark)
        }
    }

    @Test func minimumsAreRespected() throws {
        let english = try #require(Hyphenator(language: "en-US"))
        #expect(english.leftMinimum >= 2)
        #expect(english.rightMinimum >= 3)
        let words = ["abandonment", "acceptable", "beautifully", "consideration", "development", "elephants",
                     "grandfather", "telescope", "unaccountably", "choreography", "observatory", "procession",
                     "illuminated", "practising", "unconcerned", "considerable", "cobblestones", "discovered"]
        for word in words {
            for point in english.breakPoints(in: word) {
                #expect(point >= english.leftMinimum && word.count - point >= english.rightMinimum, "\(word) at \(point)")
            }
        }
        #expect(words.contains { !english.breakPoints(in: $0).isEmpty })
    }

    @Test func wordsThatMustNotBeHyphenatedAreLeftAlone() throws {
        let english = try #require(Hyphenator(language: "en"))
        let untouched = ["cat", "time", "abc123defghijk", "https://example.com/international", "www.example.com/documentation",
                         "someone@internationalization.org", "hy\(shy)phenation", "2024-internationalization", "/usr/share/hyphenation"]
        for word in untouched { #expect(english.hyphenate(word) == word, "\(word)") }
    }

    /// The exceptions file comes before the patterns, which split these compounds inside a part.
    @Test func listedWordsBreakOnlyWhereTheirEntrySays() throws {
        let folder = Repository.resources.hyphenation
        let listed = try #require(HyphenationExceptions.forLanguage("en-US", in: folder))
        let english = try #require(Hyphenator(language: "en-US", exceptions: listed))
        let patterns = try #require(Hyphenator(language: "en-US"))
        #expect(patterns.hyphenate("namespace") == "names\(shy)pace", "the patterns no longer split it wrong: drop it from en.txt")
        for (word, expected) in [("namespace", "name\(shy)space"), ("Namespaces,", "Name\(shy)spaces,"),
                                 ("filesystem", "file\(shy)system"), ("frontend", "front\(shy)end"),
                                 ("database", "data\(shy)base"), ("whitespace", "white\(shy)space")] {
            #expect(english.hyphenate(word) == expected, "\(word)")
        }
        // A word the file does not list keeps its patterns' breaks.
        #expect(english.hyphenate("hyphenation") == "hy\(shy)phen\(shy)ation")
        // Every entry of the shipped file is a word with hyphens.
        _ = try HyphenationExceptions.read(folder.appendingPathComponent("en.txt"))
    }

    @Test func aBadExceptionsEntryIsRefusedNamingItsLine() throws {
        let dir = try temporaryDirectory("exceptions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("en.txt")
        try Data("# comment\nname-space\nfile_name\n".utf8).write(to: file)
        #expect(throws: ExceptionsError.self) { try HyphenationExceptions.read(file) }
        do { _ = try HyphenationExceptions.read(file) } catch { #expect("\(error)".contains("en.txt:3"), "\(error)") }
    }

    /// A name from a program with a hyphen added inside would read as another name.
    @Test func namesFromProgramsAreNotHyphenated() throws {
        let english = try #require(Hyphenator(language: "en"))
        for name in ["requirements.txt", "collections.defaultdict", "print_report", "test_parse_dates", "__init__.py",
                     "document.getElementById", "pygame.display.set_mode", "résumé_téléchargement"] {
            #expect(english.hyphenate(name) == name, "\(name)")
        }
        // A sentence's full stop is no name's dot.
        #expect(english.hyphenate("extraordinary.").contains(shy))
    }

    @Test func punctuationAndSpacingSurviveUnchanged() throws {
        let english = try #require(Hyphenator(language: "en"))
        let text = "(Extraordinary!) \"internationalization,\"\nthe grandfather’s\u{2028}well-documented\ttelescope…  end"
        let result = english.hyphenate(text)
        #expect(result.replacingOccurrences(of: shy, with: "") == text)
        #expect(result.hasPrefix("(Ex\(shy)"))
        #expect(result.contains("in\(shy)ter\(shy)na\(shy)tion\(shy)al\(shy)iza\(shy)tion,\""))
        #expect(result.contains("grand\(shy)fa\(shy)ther’s"))
        #expect(result.contains("well-doc\(shy)u\(shy)mented"))
    }

    @Test func dictionariesAreChosenFromTheLanguageTag() {
        func name(_ tag: String) -> String? { Hyphenator.dictionaryURL(for: tag)?.lastPathComponent }
        #expect(name("en") == "hyph_en_US.dic")
        #expect(name("en-US") == "hyph_en_US.dic")
        #expect(name("en_GB") == "hyph_en_GB.dic")
        #expect(name("en-Latn-GB") == "hyph_en_GB.dic")
        #expect(name("de") == "hyph_de_DE.dic")
        #expect(name("de-AT") == "hyph_de_AT.dic")
        #expect(name("fr-CA") == "hyph_fr_CA.dic")
        #expect(name("xx") == nil)
        #expect(name("") == nil)
        #expect(Hyphenator(language: "tlh") == nil)
    }

    @Test func aDictionaryInAnotherFolderIsFound() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyphen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: "/usr/share/hyphen/hyph_en_US.dic", toPath: dir.appendingPathComponent("hyph_en_NZ.dic").path)
        let hyphenator = try #require(Hyphenator(language: "en-NZ", directories: [dir]))
        #expect(hyphenator.dictionaryURL.lastPathComponent == "hyph_en_NZ.dic")
        #expect(hyphenator.hyphenate("hyphenation") == "hy\(shy)phen\(shy)ation")
    }

    /// Typesetters on several threads share one loaded pattern file; hyphenating with it at once on
    /// four threads gives what one thread alone gives.
    @Test func hyphenatorsOnConcurrentThreadsShareOneDictionary() throws {
        let words = ["internationalization", "characteristically", "responsibility", "extraordinary",
                     "neighbourhood", "photographs", "unbelievably", "comfortable", "remembered", "lighthouse"]
        let text = (0..<400).map { words[$0 % words.count] }.joined(separator: " ")
        let expected = try #require(Hyphenator(language: "en-US")).hyphenate(text)
        #expect(expected.contains(shy))
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard let hyphenator = Hyphenator(language: "en-US") else { return results.add(nil, "") }
            results.add(UnsafeRawPointer(hyphenator.dict), hyphenator.hyphenate(text))
        }
        #expect(results.texts == Array(repeating: expected, count: 4))
        #expect(Set(results.dictionaries).count == 1, "one pattern file in memory, not one per thread")
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var dictionaries: [UnsafeRawPointer?] = []
        private(set) var texts: [String] = []
        func add(_ dictionary: UnsafeRawPointer?, _ text: String) {
            lock.withLock { dictionaries.append(dictionary); texts.append(text) }
        }
    }
}
