import Foundation
import Testing
import BookLayout
import BookTestSupport
import BookRenderKit

/// Books the repository has never seen, rendered at four trims: a small dark figure under a bright
/// moon, a figure standing on the picture's bottom edge, a figure near the fold of a spread. On
/// every page the figure must be seen (inside the trim, under no text), measured twice: from the
/// page tree (the picture's frame and clip, the cards and text boxes over it) and from the
/// rendered PNG (the figure's own colours where its pixels should be). The report's kept share
/// must say what is seen.
@Suite struct CharacterVisibilityTests {
    struct Scene {
        var file: String, width: Int, height: Int, figure: SceneFigure

        var origin: String { "images/\(file)" }
        func draw() throws -> Data { try NightScenes.night(width: width, height: height, figure: figure) }
    }

    static let moonlit = Scene(file: "moonlit.png", width: 900, height: 600, figure: SceneFigure(x: 380, foot: 500, height: 90))
    static let edge = Scene(file: "edge.png", width: 900, height: 600, figure: SceneFigure(x: 560, foot: 600, height: 110))
    static let wide = Scene(file: "wide.png", width: 1600, height: 560, figure: SceneFigure(x: 730, foot: 470, height: 90))

    static let trims = ["8.5x8.5", "11x8.5", "8.25x11", "6x9"]

    /// A folder holding the book at `trim` (inches, "W×H") with its pictures; `tokens` (JSON) added as given.
    static func book(trim: String, tokens: String? = nil,
                     spreadText: (left: String, right: String) = ("The night went on and on, wider than a whole page.",
                                                                   "Mo was small in it, and not afraid.")) throws -> URL {
        let folder = try temporaryDirectory("figure-\(trim)")
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for scene in [moonlit, edge, wide] { try scene.draw().write(to: images.appendingPathComponent(scene.file)) }
        try NightScenes.reference().write(to: images.appendingPathComponent("mo.png"))
        let size = trim.split(separator: "x")
        let json = """
            {
              "schema": 1, "kind": "storybook", "language": "en", "title": "Mo and the Moon", "theme": "picture-book",
              "format": {"trim": {"width": "\(size[0])in", "height": "\(size[1])in"}},
              "characters": {"main": {"name": "Mo", "image": "images/mo.png"}},
              \(tokens.map { "\"tokens\": \($0)," } ?? "")
              "pages": [
                {"type": "illustration", "image": "\(moonlit.origin)",
                 "text": "The moon came up over the hill, round and bright, and Mo stood very still to watch it."},
                {"type": "illustration", "image": "\(edge.origin)",
                 "text": "Mo walked right to the edge of the picture, where the grass ran out."},
                {"type": "spread", "image": "\(wide.origin)",
                 "leftText": "\(spreadText.left)", "rightText": "\(spreadText.right)"}
              ]
            }
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("book.json"))
        return folder
    }

    struct Rendered {
        var tree: PageTree
        var report: ExportReport
        var pngs: [Int: RGBAImage]
        var folder: URL
    }

    static func render(_ folder: URL) throws -> Rendered {
        let document = try TestBooks.open(folder.appendingPathComponent("book.json"))
        let tree = try document.layout()
        let out = folder.appendingPathComponent("png")
        let report = try document.export(ExportOptions(png: .init(folder: out, dpi: 40)))
        var pngs: [Int: RGBAImage] = [:]
        for file in report.pngFiles {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            if let number = Int(name.dropFirst("page-".count)) { pngs[number] = try RGBAImage(contentsOf: URL(fileURLWithPath: file)) }
        }
        return Rendered(tree: tree, report: report, pngs: pngs, folder: folder)
    }

    /// The pages drawing `scene`, each with the picture's box and what is drawn over it.
    static func showings(_ scene: Scene, in tree: PageTree) -> [(page: PageNode, image: ImageBox, over: [Rect])] {
        tree.pages.compactMap { page in
            guard let at = page.items.firstIndex(where: { if case .image(let i) = $0 { i.asset.origin == scene.origin } else { false } }),
                  case .image(let image) = page.items[at] else { return nil }
            let over = page.items[(at + 1)...].compactMap { item -> Rect? in
                switch item {
                case .fill(let f): f.rect
                case .text(let t): t.frame
                default: nil
                }
            }
            return (page, image, over)
        }
    }

    /// The share of the figure's pixels seen on any page showing the scene, by the page tree: inside
    /// the picture's clip and the trim, and under nothing drawn after the picture.
    static func seenInTree(_ scene: Scene, _ tree: PageTree) -> Double {
        let shown = showings(scene, in: tree)
        let trim = Rect(x: 0, y: 0, width: tree.trim.width, height: tree.trim.height)
        var total = 0, seen = 0
        let b = scene.figure.box
        for py in stride(from: b.y, to: b.y + b.height, by: 1) {
            for px in stride(from: b.x, to: b.x + b.width, by: 1) where scene.figure.colour(atX: px + 0.5, y: py + 0.5) != nil {
                total += 1
                let visible = shown.contains { page, image, over in
                    let x = image.frame.x + (px + 0.5) / Double(scene.width) * image.frame.width
                    let y = image.frame.y + (py + 0.5) / Double(scene.height) * image.frame.height
                    func inside(_ r: Rect) -> Bool { x >= r.x && x < r.maxX && y >= r.y && y < r.maxY }
                    return inside(image.clip) && inside(trim) && !over.contains(where: inside)
                }
                if visible { seen += 1 }
            }
        }
        return total == 0 ? 0 : Double(seen) / Double(total)
    }

    /// The same share read from the PNGs: a pixel of the figure is seen where the page shows the
    /// figure's colour there (its shapes' blended edges left out).
    static func seenInPNG(_ scene: Scene, _ rendered: Rendered) -> Double {
        let shown = showings(scene, in: rendered.tree)
        var total = 0, seen = 0
        let b = scene.figure.box
        for py in stride(from: b.y, to: b.y + b.height, by: 0.5) {
            for px in stride(from: b.x, to: b.x + b.width, by: 0.5) {
                // Two PNG pixels in from every edge, at the scale of the first page drawing it.
                guard let first = shown.first, let png = rendered.pngs[first.page.number] else { return 0 }
                let pxPerPicturePixel = first.image.frame.width / Double(scene.width) * Double(png.width) / rendered.tree.trim.width
                guard let colour = scene.figure.colour(atX: px, y: py, inset: 2 / pxPerPicturePixel) else { continue }
                total += 1
                let visible = shown.contains { page, image, _ in
                    guard let png = rendered.pngs[page.number] else { return false }
                    let scale = Double(png.width) / rendered.tree.trim.width
                    let x = image.frame.x + px / Double(scene.width) * image.frame.width
                    let y = image.frame.y + py / Double(scene.height) * image.frame.height
                    let ix = Int((x * scale).rounded(.down)), iy = Int((y * scale).rounded(.down))
                    guard ix >= 0, iy >= 0, ix < png.width, iy < png.height else { return false }
                    let p = png.pixel(x: ix, y: iy)
                    return abs(Int(p.red) - colour.red) <= 24 && abs(Int(p.green) - colour.green) <= 24 && abs(Int(p.blue) - colour.blue) <= 24
                }
                if visible { seen += 1 }
            }
        }
        return total == 0 ? 0 : Double(seen) / Double(total)
    }

    static func kept(_ scene: Scene, _ report: ExportReport) -> [Double] {
        report.pages.flatMap { $0.art }.filter { $0.image == scene.origin }.map(\.subjectKept)
    }

    @Test(arguments: trims)
    func theFigureIsSeenOnEveryPage(_ trim: String) throws {
        let folder = try Self.book(trim: trim)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = try Self.render(folder)
        for scene in [Self.moonlit, Self.edge, Self.wide] {
            let tree = Self.seenInTree(scene, rendered.tree), png = Self.seenInPNG(scene, rendered)
            let kept = Self.kept(scene, rendered.report)
            print(String(format: "%@ %@: figure seen %.3f (page tree), %.3f (PNG); report keeps %@", trim, scene.file, tree, png,
                         kept.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
            #expect(tree >= 0.9, "\(trim) \(scene.file): \(tree) of the figure seen by the page tree")
            #expect(png >= 0.9, "\(trim) \(scene.file): \(png) of the figure seen in the PNG")
            #expect(!kept.isEmpty && kept.allSatisfy { abs($0 - tree) <= 0.1 },
                    "\(trim) \(scene.file): the report keeps \(kept) of the subject where \(tree) of the figure is seen")
        }
        // The spread's figure stands clear of the trim's quarter inch and of the fold's half inch.
        let w = rendered.tree.trim.width, h = rendered.tree.trim.height
        let (page, image, _) = try #require(Self.showings(Self.wide, in: rendered.tree).first)
        let b = Self.wide.figure.box
        let x0 = image.frame.x + b.x / 1600 * image.frame.width + (page.side == .right ? w : 0)
        let x1 = x0 + b.width / 1600 * image.frame.width
        let y0 = image.frame.y + b.y / 560 * image.frame.height, y1 = y0 + b.height / 560 * image.frame.height
        #expect(x0 >= 18 && x1 <= 2 * w - 18 && y0 >= 18 && y1 <= h - 18, "\(trim): figure at x \(x0)–\(x1), y \(y0)–\(y1) of a \(2 * w) × \(h) spread")
        #expect(x1 <= w - 36 || x0 >= w + 36, "\(trim): figure at x \(x0)–\(x1), the fold at \(w)")
        #expect(!rendered.report.findings.contains { $0.message.contains("fold") }, "\(rendered.report.findings.map(\.message))")
    }

    /// Long text pinned over the figure (on the art, where it would hide too much of the subject to
    /// stand there, so on a card): the report's kept share falls with what is seen.
    @Test(arguments: ["8.5x8.5", "6x9"])
    func textOverTheFigureIsTakenOffWhatIsKept(_ trim: String) throws {
        let long = String(repeating: "The night went on and on, wider than a whole page, and the grass was cold and wet. ", count: 2)
        let folder = try Self.book(trim: trim, tokens: #"{"templates": {"illustration": {"over": {"pin": "bottom"}}, "spread": {"placement": {"pin": "bottom"}}}}"#,
                                   spreadText: (long, long))
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = try Self.render(folder)
        let tree = Self.seenInTree(Self.wide, rendered.tree), png = Self.seenInPNG(Self.wide, rendered)
        let kept = Self.kept(Self.wide, rendered.report)
        print(String(format: "%@ pinned: figure seen %.3f (page tree), %.3f (PNG); report keeps %@", trim, tree, png,
                     kept.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
        #expect(tree < 0.8, "\(trim): the pinned card should hide a good part of the figure (\(tree) seen)")
        // The card's shadow darkens the figure just above it, so the PNG may show a little less.
        #expect(png <= tree + 0.05 && png >= tree - 0.15, "\(trim): the PNG shows \(png) of the figure, the page tree \(tree)")
        #expect(!kept.isEmpty && kept.allSatisfy { abs($0 - tree) <= 0.08 },
                "\(trim): the report keeps \(kept) of the subject where \(tree) of the figure is seen")
    }
}
