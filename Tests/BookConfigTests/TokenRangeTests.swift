import Foundation
import Testing
import BookConfig
import BookModel
import BookTestSupport

/// Every token has a range; a value outside it is refused where it was written (the book's
/// `$.tokens…` or the theme file), with the range, and never clamped.
@Suite struct TokenRangeTests {
    let templates = Repository.resources.templates

    @Test func theShippedThemesAreInsideEveryRange() throws {
        for name in Theme.available(in: templates) {
            let theme = try Theme.load(named: name, from: templates)
            #expect(throws: Never.self) { try theme.tokens(overriddenBy: nil) }
        }
    }

    @Test(arguments: [("size", 0.0), ("size", 1e308), ("lineHeight", 9.2e18), ("indent", 1e308), ("weight", 5000)])
    func aBookOverrideOutOfRangeNamesItsPathAndTheRange(_ key: String, _ value: Double) throws {
        let theme = try Theme.load(named: "memoir", from: templates)
        let overrides = JSONValue.object(["typography": .object(["body": .object([key: .number(value)])])])
        #expect {
            try theme.tokens(overriddenBy: overrides)
        } throws: { error in
            guard let config = error as? ConfigError, let issue = config.issues.first else { return false }
            return issue.file == nil && issue.jsonPath == "$.tokens.typography.body.\(key)" && issue.message.contains("allowed range")
        }
    }

    @Test func aLineBreakingOtherThanOptimalOrFirstFitIsRefused() throws {
        let theme = try Theme.load(named: "memoir", from: templates)
        let chosen = try theme.tokens(overriddenBy: .object(["typography": .object(["lineBreaking": .string("first-fit")])]))
        #expect(chosen.typography.lineBreaking == "first-fit")
        #expect {
            try theme.tokens(overriddenBy: .object(["typography": .object(["lineBreaking": .string("best")])]))
        } throws: { error in
            guard let issue = (error as? ConfigError)?.issues.first else { return false }
            return issue.jsonPath == "$.tokens.typography.lineBreaking" && issue.message.contains("first-fit")
        }
    }

    @Test func aThemeValueOutOfRangeNamesTheThemeFile() throws {
        let folder = try temporaryDirectory("theme")
        var text = try String(contentsOf: templates.appendingPathComponent("picture-book.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: #""shadow": { "radius": 10"#, with: #""shadow": { "radius": 1e308"#)
        try text.write(to: folder.appendingPathComponent("wild.json"), atomically: true, encoding: .utf8)
        let theme = try Theme.load(named: "wild", from: folder)
        #expect {
            try theme.tokens(overriddenBy: nil)
        } throws: { error in
            guard let issue = (error as? ConfigError)?.issues.first else { return false }
            return issue.file == folder.appendingPathComponent("wild.json").path
                && issue.jsonPath == "$.tokens.sizing.shadow.radius" && issue.message.contains("0–72 pt")
        }
    }

    @Test func everyRangeIsDocumented() throws {
        let doc = try String(contentsOf: Repository.root.appendingPathComponent("docs/rendering.md"), encoding: .utf8)
        for entry in TokenRanges.numbers {
            let leaf = String(entry.path.split(separator: ".").last!)
            #expect(doc.contains(leaf), "\(entry.path) is not in docs/rendering.md")
            let bounds = String(entry.allowed.split(separator: " ").first!)
            #expect(doc.contains(bounds), "\(entry.path)'s range \(entry.allowed) is not in docs/rendering.md")
        }
    }
}

@Suite struct ProfileRangeTests {
    let profiles = Repository.resources.templates.appendingPathComponent("profiles")

    @Test func theShippedProfilesAreInsideEveryRange() throws {
        for name in PrintProfile.available(in: profiles) {
            #expect(throws: Never.self) { try PrintProfile.load(named: name, from: profiles) }
        }
    }

    /// A page multiple of 0 would divide by zero when the book is padded; a huge bleed draws nothing.
    @Test(arguments: [(#""multiple": 2"#, #""multiple": 0"#, "$.pages.multiple"),
                      (#""safety": "0.375in""#, #""safety": "100in""#, "$.safety")])
    func aProfileValueOutOfRangeNamesTheFileAndPath(_ from: String, _ to: String, _ path: String) throws {
        let folder = try temporaryDirectory("profile")
        let text = try String(contentsOf: profiles.appendingPathComponent("kdp.json"), encoding: .utf8)
        #expect(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(to: folder.appendingPathComponent("odd.json"), atomically: true, encoding: .utf8)
        #expect {
            try PrintProfile.load(named: "odd", from: folder)
        } throws: { error in
            guard let issue = (error as? ConfigError)?.issues.first else { return false }
            return issue.file == folder.appendingPathComponent("odd.json").path && issue.jsonPath == path
                && issue.message.contains("allowed range")
        }
    }

    /// The hardcover spine is found by the first bracket a page count fits: brackets out of order
    /// would give a thin book a thick spine.
    @Test func hardcoverSpineBracketsMustGrow() throws {
        let folder = try temporaryDirectory("profile-casewrap")
        let text = try String(contentsOf: profiles.appendingPathComponent("lulu.json"), encoding: .utf8)
        let from = #"{ "maxPages": 140, "inches": 0.5 }"#
        #expect(text.contains(from))
        try text.replacingOccurrences(of: from, with: #"{ "maxPages": 60, "inches": 0.5 }"#)
            .write(to: folder.appendingPathComponent("odd.json"), atomically: true, encoding: .utf8)
        #expect {
            try PrintProfile.load(named: "odd", from: folder)
        } throws: { error in
            guard let issue = (error as? ConfigError)?.issues.first else { return false }
            return issue.jsonPath == "$.casewrap.spine[1].maxPages" && issue.message.contains("smallest first")
        }
        let lulu = try PrintProfile.load(named: "lulu", from: profiles)
        #expect(try lulu.casewrapSpineWidth(pages: 84) == 0.25 && lulu.casewrapSpineWidth(pages: 85) == 0.5)
        #expect(throws: ConfigError.self) { try lulu.casewrapSpineWidth(pages: 801) }
    }
}

@Suite struct SmartQuotesTokenTests {
    let templates = Repository.resources.templates

    @Test func smartQuotesIsTrueOrFalse() throws {
        let theme = try Theme.load(named: "memoir", from: templates)
        #expect(try theme.tokens(overriddenBy: nil).typography.smartQuotes != false)
        let off = try theme.tokens(overriddenBy: .object(["typography": .object(["smartQuotes": .bool(false)])]))
        #expect(off.typography.smartQuotes == false)
        #expect {
            try theme.tokens(overriddenBy: .object(["typography": .object(["smartQuotes": .string("yes")])]))
        } throws: { error in
            guard let issue = (error as? ConfigError)?.issues.first else { return false }
            return issue.file == nil && issue.jsonPath == "$.tokens.typography.smartQuotes" && issue.message == "expected true or false"
        }
    }
}
