import Foundation
import BookConfig
import BookResolve

/// The front cover of a book with no cover picture, made from its words and its theme alone, as a
/// typeset jacket: the title large and evenly broken between the theme's bookbinder's rules, the
/// subtitle, and the author's name across the foot. A picture book's title takes the size a
/// jacket's does (its capitals as large as a picture cover's, as the longest word allows), the
/// main character's name in spaced capitals over it when the title does not say it; a memoir's
/// cover keeps the accent spine band on screen. Every word stays inside the margins.
struct TypographicCover {
    let ctx: LayoutContext
    let index: Int

    /// How much larger than the theme's title size a title with the whole cover to itself may be.
    static let titleEnlargement = 1.35
    /// The share of the text area the title may take before it is set smaller.
    static let titleShare = 0.42
    /// Letter spacing of the author's name, in ems of its size, set in capitals.
    static let authorTracking = 0.14

    var fullBleed: Bool { ctx.tokens.templates.cover.style == "full-bleed" }

    func layout() {
        let cover = ctx.book.cover
        let typo = ctx.tokens.typography
        let palette = ctx.palette
        let margins = fullBleed ? ctx.jacketMargins : ctx.book.margins
        let page = ctx.bleedRect(for: ctx.pages[index].number)
        let area = Rect(x: margins.inner, y: margins.top, width: ctx.width - margins.inner - margins.outer,
                        height: ctx.height - margins.top - margins.bottom)
        let mid = area.x + area.width / 2

        // A picture book's jacket is the theme's wash, edge to edge; a memoir's the paper itself.
        if fullBleed { ctx.append(.fill(Fill(rect: page, color: palette.wash)), to: index) }
        // A printed sheet has its real spine beside the front: no band there to read as a second.
        if !fullBleed, ctx.book.profile == nil {
            ctx.append(.fill(Fill(rect: Rect(x: page.x, y: page.y, width: ctx.width * 0.06 - page.x, height: page.height),
                                  color: cover.accent)), to: index)
        }

        // The foot: the author's name in spaced capitals, on the last line of the text area.
        var foot = area.maxY
        if let name = cover.author, !name.isEmpty {
            let author = authorLayout(name, role: typo.subtitle, width: area.width)
            foot = area.maxY - author.height
            ctx.append(.text(ctx.textBox(author, x: area.x, y: foot, width: area.width, color: palette.ink)), to: index)
            foot -= typo.subtitle.size * 1.5
        }

        let subtitle = cover.subtitle.flatMap { $0.isEmpty ? nil : $0 }.map {
            ctx.setTitle($0, role: typo.subtitle, width: area.width * 0.85, alignment: .center)
        }
        // The head: the hero's name as a small line above the rules when the title does not
        // already say it. A title too long for its size between the rules and that line first
        // takes their room: the name is left off and the rules drawn closer, as a jacket lettered
        // edge to edge has no room for ornament.
        let hero = heroName
        var kicker = hero.flatMap {
            cover.title.localizedCaseInsensitiveContains($0) ? nil : authorLayout($0, role: typo.subtitle, width: area.width, scale: 0.8)
        }
        var ruleGap = typo.title.size * 0.55
        var ornament: Double { ruleGap * 2 + 4 }
        var above: Double { (kicker.map { $0.height + ruleGap } ?? 0) + ornament }
        var room: Double { foot - area.y - above - ornament - (subtitle?.height ?? 0) }

        // A picture book's title as large as on a picture cover, where the room allows: it may
        // take all the room between the rules, but not go under a picture cover's least size.
        var role = typo.title
        var scale = fullBleed ? max(Self.titleEnlargement, FullBleedTitle.titleScale(ctx, width: area.width)) : Self.titleEnlargement
        let themeSmallest = (typo.title.minSize ?? typo.title.size) / typo.title.size
        var title: TextLayout
        if fullBleed {
            func leastScale() -> Double {
                min(scale, max(themeSmallest, FullBleedTitle.titleScale(ctx, width: area.width, share: FullBleedTitle.leastCapShare, role: role)))
            }
            var least = leastScale()
            func useCondensed(_ condensed: TypeRole) {
                role = condensed
                scale = max(Self.titleEnlargement, FullBleedTitle.titleScale(ctx, width: area.width, role: role))
                least = leastScale()
            }
            // A word too long for the theme's face at its least share takes the condensed face
            // from the start.
            let heldByWord = FullBleedTitle.titleScale(ctx, width: area.width, share: FullBleedTitle.leastCapShare, role: role)
                < FullBleedTitle.titleScale(ctx, width: area.width, share: FullBleedTitle.leastCapShare, role: role, heldByLongestWord: false) * 0.999
            // Looked up only when one of the two tests below needs it (a font load and a layout).
            lazy var condensed = ctx.condensedRole(of: typo.title, for: cover.title)
            if heldByWord, let condensed { useCondensed(condensed) }
            // The foot keeps a line and a half above the author's name; half a line is enough.
            var titleRoom: Double { room + typo.subtitle.size }
            func setDownToLeast() -> TextLayout {
                ctx.setTitle(cover.title, role: role, width: area.width, maxHeight: titleRoom, scale: scale,
                             smallestScale: least, alignment: .center)
            }
            title = setDownToLeast()
            if title.height > titleRoom {
                kicker = nil
                ruleGap = typo.title.size * 0.2
                title = setDownToLeast()
            }
            // Then the theme's condensed face, as a jacket letters a long title.
            if title.height > titleRoom, role != condensed, let condensed {
                useCondensed(condensed)
                title = setDownToLeast()
            }
            // A title too long for the room even at a picture cover's least size goes smaller,
            // down to the theme's own least, rather than into the author's name.
            if title.height > titleRoom {
                title = ctx.setTitle(cover.title, role: role, width: area.width, maxHeight: room, scale: least,
                                     smallestScale: themeSmallest, alignment: .center)
            }
        } else {
            title = ctx.setTitle(cover.title, role: typo.title, width: area.width, maxHeight: min(area.height * Self.titleShare, foot - area.y - above),
                                 scale: scale, smallestScale: themeSmallest, alignment: .center)
        }
        // The whole group (mark, title, rule, subtitle) hangs a little above the middle of the room
        // over the author's name: the optical centre, where a centred block looks centred.
        let block = above + title.height + ornament + (subtitle?.height ?? 0)
        var y = area.y + max(0, (foot - area.y - block) * 0.42)

        if let kicker {
            ctx.append(.text(ctx.textBox(kicker, x: area.x, y: y, width: area.width, color: cover.accent)), to: index)
            y += kicker.height + ruleGap
        }
        doubleRule(at: y + ruleGap - 2, centre: mid, width: area.width * 0.4)
        y += ornament
        ctx.append(.text(ctx.textBox(title, x: area.x, y: y, width: area.width, color: palette.ink, structure: .title)), to: index)
        y += title.height
        doubleRule(at: y + ruleGap, centre: mid, width: area.width * 0.4)
        y += ornament
        if let subtitle {
            ctx.append(.text(ctx.textBox(subtitle, x: area.x + area.width * 0.075, y: y, width: area.width * 0.85,
                                         color: palette.muted)), to: index)
        }
    }

    /// The main character's name, when the book has one.
    var heroName: String? {
        let name = ctx.book.book.characters?.main?.name.trimmingCharacters(in: .whitespacesAndNewlines)
        return name?.isEmpty == false ? name : nil
    }

    /// A thick and a thin accent rule, one above the other: a bookbinder's rule.
    func doubleRule(at y: Double, centre: Double, width: Double) {
        let accent = ctx.book.cover.accent
        ctx.append(.rule(Rule(from: (centre - width / 2, y - 1.5), to: (centre + width / 2, y - 1.5), width: 1.5, color: accent)), to: index)
        ctx.append(.rule(Rule(from: (centre - width / 2, y + 1.5), to: (centre + width / 2, y + 1.5), width: 0.5, color: accent)), to: index)
    }

    /// A name set in spaced capitals where its script has capitals and letters that stand apart;
    /// a script whose letters join (Arabic) or has no case is set as written.
    func authorLayout(_ name: String, role: TypeRole, width: Double, scale: Double = 0.85) -> TextLayout {
        var style = ctx.style(role, scale: scale)
        let separateLetters = name.unicodeScalars.allSatisfy { $0.value < 0x0590 }
        var text = name
        if separateLetters {
            text = name.uppercased(with: Locale(identifier: ctx.book.language))
            style.letterSpacing = style.size * Self.authorTracking
        }
        return TitleSetter(typesetter: ctx.typesetter).set(text, style: style, minSize: style.size * 0.8, width: width)
    }
}
