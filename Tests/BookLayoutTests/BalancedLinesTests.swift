import Testing
@testable import BookLayout
import BookTestSupport

/// Centred text is balanced on widths measured once (`BalancedLines.Measured`), which stands for
/// Pango laying the text out again at every width tried. The model must break where Pango breaks,
/// in every script; the balanced lines must be as many as Pango's and come out even.
@Suite struct BalancedLinesTests {
    static let texts = [
        "I'm pleased to have this opportunity to welcome you to the story of a small fox who lived at the edge of a very large wood.",
        "Лиса жила на краю большого леса, и каждое утро она смотрела, как солнце встаёт над деревьями.",
        "Η αλεπού ζούσε στην άκρη ενός μεγάλου δάσους και κάθε πρωί κοιτούσε τον ήλιο να ανατέλλει.",
        "小狐狸住在一片大森林的边上，每天早上它都看着太阳从树梢上升起来，然后跑到河边去喝水。",
        "كان الثعلب الصغير يعيش على حافة غابة كبيرة، وكل صباح كان ينظر إلى الشمس وهي تشرق فوق الأشجار.",
        "A fox 🦊 and a moon 🌙 went walking—far, far away—past well-known hills and un-named rivers.",
    ]
    static let styles = [childrenStyle, bodyStyle,
                         TextStyle(family: "Andika", size: 30, weight: 700, italic: false, lineHeight: 1.1)]

    @Test func theMeasuredLinesAreThoseFillingEachLineInTurnGives() throws {
        let typesetter = try makeTypesetter()
        var tried = 0, differ: [String] = []
        for text in Self.texts {
            let segment = Array(text.utf8)
            for style in Self.styles {
                let measured = try #require(BalancedLines.Measured(segment, style: style, typesetter: typesetter))
                for width in stride(from: 40.0, through: 520, by: 6.5) {
                    tried += 1
                    let pango = BalancedLines.lineStarts(segment, style: style, width: width, typesetter: typesetter)
                    if measured.lineStarts(width) != pango { differ.append("\(text.prefix(12))… \(style.size) pt at \(width)") }
                }
            }
        }
        // Where a font kerns across a break the two could part at a width within a hair of it;
        // the width balancing finds is checked with Pango all the same.
        #expect(differ.isEmpty, "\(differ.count) of \(tried): \(differ.prefix(10))")
    }

    @Test func centredTextIsAsManyLinesAsPangosAndEven() throws {
        let typesetter = try makeTypesetter()
        for text in Self.texts {
            for width in [150.0, 240, 330] {
                let style = childrenStyle
                let greedy = BalancedLines.lineStarts(Array(text.utf8), style: style, width: width, typesetter: typesetter)
                let balanced = typesetter.layout(text, style: style, width: width, alignment: .center, hyphenate: false)
                #expect(balanced.lines.count == greedy.count, "\(text.prefix(12))… at \(width)")
                #expect(balanced.lines.allSatisfy { $0.width <= width + 0.5 })
                guard balanced.lines.count > 1 else { continue }
                // Even: the shortest line is at least half the longest (greedy filling leaves a
                // word or two alone under full lines).
                let widths = balanced.lines.map(\.width)
                #expect(widths.min()! >= widths.max()! * 0.5, "\(text.prefix(12))… at \(width): \(widths)")
            }
        }
    }
}
