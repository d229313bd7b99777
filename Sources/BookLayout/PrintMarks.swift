import BookConfig
import BookResolve

/// What a print profile adds around the pages: blank pages to the printer's multiple, and for a
/// proof, crop marks, registration marks and a slug line, all outside the trim and the bleed.
enum PrintMarks {
    /// How far a registration mark's cross reaches from its centre, as `PageDrawer` draws it.
    static func registrationReach(radius: Double) -> Double { 1.5 * radius }

    /// Where the slug line goes: below the bottom bleed, between the crop marks at the trim edges,
    /// at least `2 × gap` clear of each and of the bottom registration mark, so its ink never
    /// touches a mark the printer lines the sheet up by. With a registration mark there are two
    /// slots, one each side of it.
    static func slugSlots(width w: Double, top y: Double, crop: Bool, gap: Double, registrationReach: Double?) -> [Rect] {
        let clearance = crop ? 2 * gap : 0
        let (left, right) = (clearance, w - clearance)
        func slot(_ from: Double, _ to: Double) -> Rect { Rect(x: from, y: y, width: max(0, to - from), height: 0) }
        guard let reach = registrationReach else { return [slot(left, right)] }
        return [slot(left, w / 2 - reach - 2 * gap), slot(w / 2 + reach + 2 * gap, right)]
    }

    static func pad(to multiple: Int, _ ctx: LayoutContext) {
        guard multiple > 1 else { return }
        let missing = (multiple - ctx.pages.count % multiple) % multiple
        guard missing > 0 else { return }
        let first = ctx.nextNumber
        for _ in 0..<missing {
            let index = ctx.addPage(.blank, source: nil)
            ctx.pages[index].blankReason = "at the end: the printer wants a multiple of \(multiple) pages"
        }
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
            let registrationRadius = min(8, m.margin.points / 4)
            if m.registration {
                let out = gap + m.margin.points / 2
                for c in [(w / 2, bleed.y - out), (w / 2, bleed.maxY + out), (bleed.x - out, h / 2), (bleed.maxX + out, h / 2)] {
                    items.append(.registration(RegistrationMark(center: c, radius: registrationRadius, color: registrationBlack)))
                }
            }
            if m.slug {
                let date = String((ctx.book.book.created ?? "2000-01-01").prefix(10))
                let book = "\(ctx.book.book.title) · page \(number) of \(ctx.pages.count)", run = "\(date) · \(profile.name)"
                let slots = slugSlots(width: w, top: bleed.maxY + gap + 2, crop: m.crop, gap: gap,
                                      registrationReach: m.registration ? registrationReach(radius: registrationRadius) : nil)
                let parts = slots.count == 1 ? [(book + " · " + run, TextAlignment.start)] : [(book, .start), (run, .end)]
                for (slot, (text, alignment)) in zip(slots, parts) {
                    // One line: what does not fit its slot is left out rather than run into a mark.
                    let layout = ctx.setText(text, role: ctx.tokens.typography.pageNumber, width: slot.width, alignment: alignment)
                    var slug = TextBox(layout: layout, lines: 0..<min(1, layout.lines.count),
                                       frame: Rect(x: slot.x, y: slot.y, width: slot.width, height: layout.height),
                                       color: registrationBlack)
                    slug.structure = .artifact
                    items.append(.text(slug))
                }
            }
            ctx.pages[i].items += items
        }
    }
}
