import Testing
import BookConfig
@testable import BookRender
import BookTestSupport

/// The interior's page count against what the printer binds: Lulu binds a paperback from 32
/// pages and a hardcover (casewrap) from 24, so a 24-page memoir prints there as a hardcover only.
@Suite struct InteriorPageCountTests {
    func profile(_ name: String) throws -> PrintProfile {
        try PrintProfile.load(named: name, from: Repository.resources.profiles)
    }

    @Test func aBookTooShortForAPaperbackIsToldItBindsAsAHardcover() throws {
        let lulu = try profile("lulu")
        let paperback = InteriorPageCount.findings(24, profile: lulu, binding: .paperback)
        #expect(paperback.count == 1 && paperback[0].severity == .error && paperback[0].check == .pageCount)
        #expect(paperback[0].message.contains("at least 32") && paperback[0].message.contains("--binding hardcover"), "\(paperback)")
        #expect(InteriorPageCount.findings(24, profile: lulu, binding: .hardcover).isEmpty)
        #expect(InteriorPageCount.findings(32, profile: lulu, binding: .paperback).isEmpty)
    }

    @Test func aBookTooShortForEitherBindingIsNotSentToTheOther() throws {
        let lulu = try profile("lulu")
        let hardcover = InteriorPageCount.findings(20, profile: lulu, binding: .hardcover)
        #expect(hardcover.count == 1 && hardcover[0].message.contains("at least 24"), "\(hardcover)")
        let paperback = InteriorPageCount.findings(20, profile: lulu, binding: .paperback)
        #expect(paperback.count == 1 && !paperback[0].message.contains("--binding"), "\(paperback)")
        let long = InteriorPageCount.findings(900, profile: lulu, binding: .hardcover)
        #expect(long.count == 1 && long[0].message.contains("at most"), "\(long)")
    }

    @Test func aHardcoverForAProfileWithoutOneIsAnError() throws {
        let kdp = try profile("kdp")
        let found = InteriorPageCount.findings(100, profile: kdp, binding: .hardcover)
        #expect(found.count == 1 && found[0].severity == .error && found[0].message.contains("--binding paperback"), "\(found)")
        #expect(InteriorPageCount.findings(100, profile: kdp, binding: .paperback).isEmpty)
    }
}
