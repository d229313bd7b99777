import ArgumentParser
import Foundation
import BookConfig
import BookLayout
import BookRender

struct Preflight: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Check a book or a PDF against a printer's profile: resolution, safe area, bleed, placeholders, page count, fonts, size.",
        discussion: "Exit codes: 0 no errors (warnings may be listed), 1 errors found, 65/66 the input is invalid or unreadable.")

    @Argument(help: "A book (book.json or an app file) or a PDF.")
    var input: String

    @Option(name: .long, help: "Print profile: a file's name in templates/profiles, such as kdp; an unknown name lists them.")
    var profile: String

    @Flag(name: .long, help: "Print the findings as JSON.")
    var json = false

    func run() throws {
        let findings: [PreflightFinding]
        do {
            let resources = try ResourceLocator.locate()
            let printProfile = try PrintProfile.load(named: profile, from: resources.profiles)
            if input.lowercased().hasSuffix(".pdf") {
                findings = try PDFPreflight.check(URL(fileURLWithPath: input), profile: printProfile)
            } else {
                let pipeline = Pipeline(profile: profile)
                let loaded = try pipeline.load(input)
                let (resolved, resources) = try pipeline.resolve(loaded)
                findings = PageTreePreflight.check(try pipeline.layout(resolved, resources: resources), profile: printProfile)
            }
        } catch {
            throw Exit.fail(error)
        }
        if json {
            struct Report: Encodable { var profile: String; var input: String; var errors: Int; var findings: [PreflightFinding] }
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let report = Report(profile: profile, input: input, errors: findings.errors.count, findings: findings)
            Console.out(String(decoding: try e.encode(report), as: UTF8.self))
        } else {
            findings.forEach { Console.out($0.description) }
            Console.out("\(input): \(findings.errors.count) error(s), \(findings.count - findings.errors.count) warning(s) for \(profile)")
        }
        if !findings.errors.isEmpty { throw ExitCode(1) }
    }
}
