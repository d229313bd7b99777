import ArgumentParser
import Foundation
import BookRenderKit

struct Fonts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fonts",
        abstract: "List the font set books are set in: family, style, file, and the scripts each face covers.",
        discussion: "Exit 66 when a listed file is missing (scripts/install-deps.sh installs them). \(ExitCodes.pointer)")

    @OptionGroup var jsonFlags: JSONFlags

    func run() throws {
        let result = ResultOutput(command: "fonts", json: jsonFlags.json)
        let listing: FontSetListing
        do throws(BookRenderError) { listing = try FontSetListing.read() } catch { throw result.fail(error) }
        if result.json {
            try? result.emit(listing)
        } else {
            Console.out("font set \(listing.fontSet ?? "?") from \(listing.manifest)")
            Console.out("default \(listing.defaultFamily); fallbacks \(listing.fallbackFamilies.joined(separator: ", "))")
            for face in listing.faces {
                let scripts = face.installed ? face.scripts.joined(separator: ", ") + " (\(face.characters) characters)" : "MISSING"
                Console.out("\(face.family) \(face.style) [\(face.role)]  \(face.file)  \(scripts)")
            }
        }
        for finding in listing.findings { Console.error("\(finding.severity.rawValue): \(finding.message); \(finding.hint ?? "")") }
        if !listing.findings.isEmpty { throw ExitCode(66) }
    }
}
