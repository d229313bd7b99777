import BookConfig
import BookResolve

/// What a print profile adds around the pages: blank pages to the printer's multiple, and for a
/// proof, crop marks, registration marks and a slug line, all outside the trim and the bleed.
enum PrintMarks {
    static func pad(to multiple: Int, _ ctx: LayoutContext) {
        guard multiple > 1 else { return }
        let missing = (multiple - ctx.pages.count % multiple) % multiple
        guard missing > 0 else { return }
        let first = ctx.nextNumber
        for _ in 0..<missing { ctx.addPage(.blank, source: nil) }
        ctx.findings.append(Finding(.warning, .blankPageInserted, physicalPages: Array(first..<ctx.nextNumber),
                                    "\(missing) blank page(s) added at the end: the printer wants a multiple of \(multiple) pages"))
    }

    static func add(_ profile: PrintProfile, _ ctx: LayoutContext) {
        let m = profile.marks
        guard m.margin.points > 0, m.crop || m.registration || m.slug else { return }
        let registrationBlack = Color.black
        let gap = 3.0
        let length = max(6, m.margin.points - 2 * gap)
        for i in ctx.pages.indices {
            let number = ctx.pages[i].number
            let bleed = ctx.bleedRect(for: number)
            let (w, h) = (ctx.width, ctx.height)
            var items: [PageItem] = []
            if m.crop {
                // Each trim edge continued outwards past the bleed, so the cut can be lined up by eye.
                for x in [0.0, w] {
                    items.append(.rule(Rule(from: (x, bleed.y - gap), to: (x, bleed.y - gap - length), width: 0.25, color: registrationBlack)))
                    items.append(.rule(Rule(from: (x, bleed.maxY + gap), to: (x, bleed.maxY + gap + length), width: 0.25, color: registrationBlack)))
                }
                for y in [0.0, h] {
                    items.append(.rule(Rule(from: (bleed.x - gap, y), to: (bleed.x - gap - length, y), width: 0.25, color: registrationBlack)))
                    items.append(.rule(Rule(from: (bleed.maxX + gap, y), to: (bleed.maxX + gap + length, y), width: 0.25, color: registrationBlack)))
                }
            }
            if m.registration {
                let r = min(8, m.margin.points / 4)
                let out = gap + m.margin.points / 2
                for c in [(w / 2, bleed.y - out), (w / 2, bleed.maxY + out), (bleed.x - out, h / 2), (bleed.maxX + out, h / 2)] {
                    items.append(.registration(RegistrationMark(center: c, radius: r, color: registrationBlack)))
                }
            }
            if m.slug {
                let date = String((ctx.book.book.created ?? "2000-01-01").prefix(10))
                let line = "\(ctx.book.book.title) · page \(number) of \(ctx.pages.count) · \(date) · \(profile.name)"
                let layout = ctx.setText(line, role: ctx.tokens.typography.pageNumber, width: w * 0.6, alignment: .start)
                // Below the bottom marks' reach, left of the bottom registration mark.
                let y = bleed.maxY + gap + 2
                items.append(.text(TextBox(layout: layout, lines: 0..<min(1, layout.lines.count),
                                           frame: Rect(x: 0, y: y, width: w * 0.6, height: layout.height), color: registrationBlack)))
            }
            ctx.pages[i].items += items
        }
    }
}
