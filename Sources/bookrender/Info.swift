import ArgumentParser
import Foundation
import BookRenderKit

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a book as it would print: pages, missing illustrations, fonts, images and their effective DPI.",
        discussion: ExitCodes.pointer)

    @Argument(help: "The book to describe.")
    var book: String

    @Option(name: .long, help: "Use this theme instead of the book's own.")
    var theme: String?

    @OptionGroup var jsonFlags: JSONFlags

    @OptionGroup(title: "Limits") var limits: LimitFlags

    func run() throws {
        let result = ResultOutput(command: "info", json: jsonFlags.json)
        let d: BookDescription
        do throws(BookRenderError) {
            d = try BookDocument.open(URL(fileURLWithPath: book), settings: RenderSettings(theme: theme, limits: limits.limits)).describe()
        } catch {
            throw result.fail(error)
        }
        if result.json { try? result.emit(d) } else { printText(d) }
    }

    private func printText(_ d: BookDescription) {
        Console.out("\(d.title) — \(d.kind), from \(d.source), theme \(d.theme)")
        Console.out("trim: \(d.trimInches) in, \(d.physicalPages) pages")
        Console.out("missing illustrations: \(d.missingIllustrations.isEmpty ? "none" : "")")
        d.missingIllustrations.forEach { Console.out("  \($0)") }
        Console.out("fonts:")
        d.fonts.forEach { Console.out("  \($0)") }
        Console.out("images:")
        for i in d.images {
            let low = i.lowestEffectiveDPI < 300 ? "  (below 300 dpi for print)" : ""
            Console.out("  \(i.origin): \(i.format) \(i.pixels) \(i.colorModel), \(i.bytes) bytes, pages \(i.pages.map(String.init).joined(separator: ",")), effective \(i.lowestEffectiveDPI) dpi\(low)")
        }
        if let measure = d.bodyCharactersPerLine { Console.out("body: about \(measure) characters a line") }
        if !d.blankPages.isEmpty {
            Console.out("blank pages:")
            d.blankPages.forEach { Console.out("  page \($0.page): \($0.why)") }
        }
        if !d.art.isEmpty {
            Console.out("crops:")
            for a in d.art {
                let text = a.textPosition.map { ", text \($0) covering \(Self.percent(a.subjectCovered)) of it" } ?? ""
                Console.out("  page \(a.page): \(a.image) \(a.fit), showing \(a.crop), subject \(a.subject) \(a.subjectSource), \(Self.percent(a.subjectKept)) kept\(text)")
            }
        }
        if !d.warnings.isEmpty {
            Console.out("warnings:")
            d.warnings.forEach { Console.out("  \($0)") }
        }
    }

    private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
}
