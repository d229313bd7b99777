import Foundation
import Testing
import BookConfig
import BookModel
import BookTestSupport

/// Themes, token overrides, colours and trim sizes: the data a book's look is made of.
@Suite struct DesignTokenTests {
    var templates: URL { Repository.resources.templates }

    @Test func hexColoursParseAndPrintBack() throws {
        let opaque = try #require(Color(hex: "#3366AA"))
        #expect(Int((opaque.red * 255).rounded()) == 0x33 && Int((opaque.green * 255).rounded()) == 0x66)
        #expect(Int((opaque.blue * 255).rounded()) == 0xAA && opaque.alpha == 1)
        #expect(opaque.hex == "#3366AA")
        let translucent = try #require(Color(hex: " #3366aa80 "))
        #expect(Int((translucent.alpha * 255).rounded()) == 0x80 && translucent.hex == "#3366AA80")
    }

    @Test(arguments: ["", "#12", "#36a", "#GGHHII", "blue", "#1234567", "3366AA"])
    func badColoursAreRefused(_ text: String) {
        #expect(Color(hex: text) == nil)
    }

    @Test func everyThemeInTheFolderLoadsWithItsName() throws {
        let names = Theme.available(in: templates)
        #expect(names.contains("memoir") && names.contains("picture-book"))
        for name in names {
            let theme = try Theme.load(named: name, from: templates)
            #expect(theme.name == name)
            #expect(try TrimSize.resolve(nil, pageAspect: theme.tokens(overriddenBy: nil).sizing.pageAspect).width > 0)
        }
    }

    /// A partial override changes only the tokens it names; the rest stay the theme's.
    @Test func overridesMergeKeyByKey() throws {
        let theme = try Theme.load(named: "memoir", from: templates)
        let base = try theme.tokens(overriddenBy: nil)
        let overridden = try theme.tokens(overriddenBy: .object([
            "palette": .object(["accent": .string("#112233")]),
            "typography": .object(["body": .object(["size": .number(13)])]),
        ]))
        #expect(overridden.palette.accent == Color(hex: "#112233"))
        #expect(overridden.palette.accent != base.palette.accent)
        #expect(overridden.palette.ink == base.palette.ink && overridden.palette.background == base.palette.background)
        #expect(overridden.typography.body.size == 13 && base.typography.body.size != 13)
        #expect(overridden.typography.body.family == base.typography.body.family)
        #expect(overridden.typography.title == base.typography.title)
    }

    @Test func aBadOverrideNamesItsPath() throws {
        let theme = try Theme.load(named: "picture-book", from: templates)
        #expect {
            try theme.tokens(overriddenBy: .object(["palette": .object(["accent": .string("not a colour")])]))
        } throws: { error in
            "\(error)".contains("palette") && "\(error)".contains("accent")
        }
    }

    @Test func trimSizesResolveFromPresetsAspectsAndExplicitSizes() throws {
        #expect(try TrimSize.resolve(nil, pageAspect: "3:4") == TrimSize.inches(8.25, 11))
        #expect(try TrimSize.resolve(.preset("6x9"), pageAspect: "3:4") == TrimSize.inches(6, 9))
        #expect(try TrimSize.resolve(.preset("6 x 9 in"), pageAspect: "3:4") == TrimSize.inches(6, 9))
        let a5 = try TrimSize.resolve(.preset("A5"), pageAspect: "3:4")
        #expect(abs(a5.width / 72 * 25.4 - 148) < 0.01 && abs(a5.height / 72 * 25.4 - 210) < 0.01)
        let explicit = try TrimSize.resolve(.size(width: try #require(Length(parsing: "8in")), height: try #require(Length(parsing: "254mm"))),
                                            pageAspect: "3:4")
        #expect(explicit.width == 576 && abs(explicit.height - 720) < 0.001)
    }

    @Test func unknownTrimsAndImpossibleSizesAreErrorsThatSayWhatToUse() throws {
        #expect { try TrimSize.resolve(.preset("huge"), pageAspect: "3:4") } throws: { "\($0)".contains("$.format.trim") && "\($0)".contains("8.25x11") }
        let tiny = try #require(Length(parsing: "0.5in")), tall = try #require(Length(parsing: "9in"))
        #expect(throws: ConfigError.self) { try TrimSize.resolve(.size(width: tiny, height: tall), pageAspect: "3:4") }
        #expect(throws: ConfigError.self) { try TrimSize.resolve(nil, pageAspect: "2:7") }
    }
}
