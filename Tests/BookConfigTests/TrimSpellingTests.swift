import Testing
import Foundation
import BookConfig
import BookModel
import BookTestSupport

/// A book's `format.trim` takes every trim a printer's profile lists, written as the list writes
/// it, and the trim error's advice is a spelling that is taken.
@Suite struct TrimSpellingTests {
    func profile(_ name: String) throws -> PrintProfile { try PrintProfile.load(named: name, from: Repository.resources.profiles) }

    @Test(arguments: ["kdp", "lulu", "ingramspark"])
    func everyListedTrimIsAFormatTrim(_ name: String) throws {
        let printer = try profile(name)
        let sizes = try #require(printer.trims?.sizes)
        for trim in sizes {
            let resolved = try TrimSize.resolve(.preset(trim.description), pageAspect: "3:4")
            #expect(abs(resolved.width - trim.width) < 0.01 && abs(resolved.height - trim.height) < 0.01, "\(name) \(trim.description): \(resolved)")
            #expect(printer.accepts(trim: resolved.width, resolved.height), "\(name) \(trim.description)")
        }
    }

    @Test func theSpellingsOnceRefusedAreTaken() throws {
        #expect(try TrimSize.resolve(.preset("5x8"), pageAspect: "3:4") == TrimSize.inches(5, 8))
        #expect(try TrimSize.resolve(.preset("7.44x9.68"), pageAspect: "3:4") == TrimSize.inches(7.44, 9.68))
        #expect(try TrimSize.resolve(.preset("6 x 9 in"), pageAspect: "3:4") == TrimSize.inches(6, 9))
    }

    @Test(arguments: ["kdp", "lulu", "ingramspark"])
    func theTrimMessagesAdviceIsATrimTheBookTakes(_ name: String) throws {
        let printer = try profile(name)
        let problem = try #require(printer.trimProblem(13 * 72, 13 * 72))
        let quoted = try #require(problem.split(separator: "\"").dropFirst().first.map(String.init), "\(problem)")
        #expect(problem.contains("format.trim"), "\(problem)")
        let resolved = try TrimSize.resolve(.preset(quoted), pageAspect: "3:4")
        #expect(printer.accepts(trim: resolved.width, resolved.height), "\(name): \"\(quoted)\" from \(problem)")
    }

    @Test func nonsenseAndSizesOutOfRangeAreStillRefused() {
        #expect { try TrimSize.resolve(.preset("0.5x0.5"), pageAspect: "3:4") } throws: { "\($0)".contains("1–60 in") }
        #expect { try TrimSize.resolve(.preset("6x9x2"), pageAspect: "3:4") } throws: { "\($0)".contains("width x height") }
        #expect { try TrimSize.resolve(.preset("ax9"), pageAspect: "3:4") } throws: { "\($0)".contains("$.format.trim") }
    }
}
