import ArgumentParser
import Foundation
import BookModel
import BookResolve
import BookLayout

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a book as it would print: pages, missing illustrations, fonts, images and their effective DPI.")

    @Argument(help: "The book to describe.")
    var book: String

    @Option(name: .long, help: "Use this theme instead of the book's own.")
    var theme: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    struct ImageUse: Encodable {
        var origin: String
        var format: String
        var pixels: String
        var colorModel: String
        var bytes: Int
        var pages: [Int]
        var lowestEffectiveDPI: Int
    }

    struct Description: Encodable {
        var title: String
        var kind: String
        var source: String
        var theme: String
        var trimInches: String
        var physicalPages: Int
        var missingIllustrations: [String]
        var fonts: [String]
        var images: [ImageUse]
        var warnings: [String]
    }

    func run() throws {
        do {
            let (loaded, resolved, tree) = try Pipeline(theme: theme).pageTree(book)
            var images: [String: ImageUse] = [:]
            var order: [String] = []
            var fonts = Set<String>()
            for page in tree.pages {
                for t in page.textBoxes { fonts.formUnion(t.layout.fontFiles) }
                for box in page.images {
                    let a = box.asset
                    let dpi = Int(box.effectiveDPI.rounded(.down))
                    if var u = images[a.id] {
                        if !u.pages.contains(page.number) { u.pages.append(page.number) }
                        u.lowestEffectiveDPI = min(u.lowestEffectiveDPI, dpi)
                        images[a.id] = u
                    } else {
                        order.append(a.id)
                        images[a.id] = ImageUse(origin: a.origin, format: "\(a.info.format)",
                                                pixels: "\(a.info.orientedWidth)×\(a.info.orientedHeight)",
                                                colorModel: "\(a.info.colorModel)", bytes: a.data.count,
                                                pages: [page.number], lowestEffectiveDPI: dpi)
                    }
                }
            }
            let missing = tree.findings.filter { $0.kind == .placeholder || $0.kind == .missingImage }.map(\.description)
            let d = Description(
                title: resolved.book.title, kind: resolved.book.kind.rawValue, source: "\(loaded.source)",
                theme: resolved.themeName,
                trimInches: String(format: "%g × %g", resolved.trim.width / 72, resolved.trim.height / 72),
                physicalPages: tree.pages.count, missingIllustrations: missing, fonts: fonts.sorted(),
                images: order.compactMap { images[$0] },
                warnings: tree.findings.filter { $0.kind != .placeholder && $0.kind != .missingImage }.map(\.description))
            json ? printJSON(d) : printText(d)
        } catch {
            throw Exit.fail(error)
        }
    }

    private func printJSON(_ d: Description) {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Console.out(String(decoding: (try? e.encode(d)) ?? Data(), as: UTF8.self))
    }

    private func printText(_ d: Description) {
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
        if !d.warnings.isEmpty {
            Console.out("warnings:")
            d.warnings.forEach { Console.out("  \($0)") }
        }
    }
}
