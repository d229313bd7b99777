import Foundation
import Testing
@testable import BookLayout
@testable import BookConfig
@testable import BookResolve

/// A subject filling `box` of a picture whose thumbnail is `colour` throughout.
private func subject(_ box: UnitRect, source: PictureSubject.Source = .estimated, colour: Float = 0.5) -> PictureSubject {
    let n = 16 * 16
    let thumbnail = Thumbnail(width: 16, height: 16, red: .init(repeating: colour, count: n),
                              green: .init(repeating: colour, count: n), blue: .init(repeating: colour, count: n))
    return PictureSubject(box: box, centre: (box.midX, box.midY), source: source,
                          weights: PictureSubject.uniformWeights(in: box, width: 16, height: 16), grid: (16, 16), thumbnail: thumbnail)
}

@Suite struct SubjectCropTests {
    /// A 3:4 picture in a wider area: the window slides down to a subject at the foot.
    @Test func aSubjectAtTheFootKeepsItsFeet() {
        let area = Rect(x: 0, y: 0, width: 300, height: 250)
        let placed = SubjectCrop.place(width: 300, height: 400, in: area, subject: subject(UnitRect(x: 0.4, y: 0.75, width: 0.2, height: 0.24)),
                                       fit: .cover)
        #expect(placed.shown.maxY > 0.99, "\(placed.shown)")
        #expect(placed.frame.maxY >= area.maxY - 1e-9 && placed.frame.y <= area.y + 1e-9)
        let centred = SubjectCrop.place(width: 300, height: 400, in: area, subject: nil, fit: .cover)
        #expect(abs(centred.shown.midY - 0.5) < 1e-9)
    }

    @Test func aGivenFocusStaysInTheMiddle() {
        let area = Rect(x: 0, y: 0, width: 100, height: 100)
        let placed = SubjectCrop.place(width: 400, height: 200, in: area,
                                       subject: subject(UnitRect.around(x: 0.6, y: 0.5, width: 0.3, height: 0.3), source: .given), fit: .cover)
        #expect(abs(placed.shown.midX - 0.6) < 1e-9, "\(placed.shown)")
    }

    @Test func containShowsTheWholePicture() {
        let placed = SubjectCrop.place(width: 400, height: 200, in: Rect(x: 0, y: 0, width: 100, height: 100),
                                       subject: subject(UnitRect(x: 0, y: 0, width: 0.1, height: 0.1)), fit: .contain)
        #expect(placed.shown == .whole)
        #expect(placed.frame.width == 100 && placed.frame.height == 50)
    }
}

@Suite struct OverlayPlacerTests {
    @Test func aCardLeavesTheSubjectAlone() {
        let frame = Rect(x: 0, y: 0, width: 300, height: 400)
        let area = Rect(x: 20, y: 20, width: 260, height: 360)
        let high = subject(UnitRect(x: 0.4, y: 0.05, width: 0.2, height: 0.3))
        let choice = OverlayPlacer.choose(TextPosition.overlays, subject: high, frame: frame) {
            OverlayPlacer.rect($0, width: OverlayPlacer.spansWidth($0) ? 260 : 156, height: 80, in: area)
        }
        #expect(choice.position == .bottom)
        #expect(choice.covered == 0)
        // Without a picture the theme's first choice stands.
        #expect(OverlayPlacer.choose([.top, .bottom], subject: nil, frame: nil) { OverlayPlacer.rect($0, width: 260, height: 80, in: area) }.position == .top)
    }

    /// Ink text on a paper card over a black picture: the card grows opaque until the text
    /// reaches 4.5:1 against what shows through it.
    @Test func aCardOverDarkArtKeepsItsContrast() throws {
        let palette = Palette(background: try #require(Color(hex: "#FFFBF2")), wash: try #require(Color(hex: "#FFF1D6")),
                              ink: try #require(Color(hex: "#333333")), accent: try #require(Color(hex: "#E0703A")),
                              spine: try #require(Color(hex: "#E0703A")), muted: try #require(Color(hex: "#8A7F70")))
        let dark = subject(UnitRect(x: 0, y: 0, width: 0.1, height: 0.1), colour: 0)
        let frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let card = Rect(x: 10, y: 10, width: 50, height: 20)
        let translucent = palette.background.withAlpha(0.5)
        #expect(TextContrast.lowest(text: palette.ink, backing: translucent, over: SubjectCrop.unit(card, in: frame),
                                    thumbnail: dark.thumbnail) < 4.5)
        let look = OverlayPlacer.backing(TextPlacementSettings(minContrast: 4.5), over: card, frame: frame, subject: dark,
                                         palette: palette, cardAlpha: 0.5)
        #expect(look.backing.alpha > 0.5)
        #expect(look.contrast >= 4.5)
        let scrim = OverlayPlacer.backing(TextPlacementSettings(backing: "scrim", minContrast: 4.5), over: card, frame: frame,
                                          subject: subject(UnitRect(x: 0, y: 0, width: 0.1, height: 0.1), colour: 1),
                                          palette: palette, cardAlpha: 0.9)
        #expect(scrim.text == palette.background)
        #expect(scrim.contrast >= 4.5)
    }

    @Test func aPinnedPositionIsTheOnlyCandidate() {
        #expect(TextPlacementSettings(positions: ["top", "bottom"], pin: "top-left").candidates(allowed: TextPosition.overlays) == [.topLeft])
        #expect(TextPlacementSettings(positions: ["top", "nowhere"]).candidates(allowed: TextPosition.bands) == [.top])
        #expect(TextPlacementSettings().candidates(allowed: TextPosition.bands) == TextPosition.bands)
    }
}

/// What counts as busy art under words: colours apart as the eye sees them.
@Suite struct QuietArtTests {
    /// A 20 × 20 night sky shading from #0B1533 to #22345E, with `shape` painted in `colour` (sRGB 0…255).
    static func night(_ shape: (Int, Int) -> Bool = { _, _ in false }, colour: (Float, Float, Float) = (0, 0, 0)) -> Thumbnail {
        var r: [Float] = [], g: [Float] = [], b: [Float] = []
        for y in 0..<20 {
            for x in 0..<20 {
                let t = Float(y) / 19
                let sky = (11 + t * 23, 21 + t * 31, 51 + t * 43)
                let c = shape(x, y) ? colour : sky
                r.append(c.0 / 255); g.append(c.1 / 255); b.append(c.2 / 255)
            }
        }
        return Thumbnail(width: 20, height: 20, red: r, green: g, blue: b)
    }

    static let whole = UnitRect(x: 0, y: 0, width: 1, height: 1)

    @Test func aSkyThatShadesSlowlyIsQuiet() {
        #expect(QuietPlacer.busyness(Self.night(), under: Self.whole) == 0)
    }

    /// A dark tree's crown on a night sky is about as far from the sky in RGB as the sky's own two
    /// ends, and plainly a shape to the eye: words must not run across it.
    @Test func aDarkTreeOnANightSkyIsBusy() {
        let crown = Self.night({ x, y in (x - 6) * (x - 6) + (y - 8) * (y - 8) <= 16 }, colour: (36, 69, 47))
        #expect(QuietPlacer.busyness(crown, under: Self.whole) > QuietPlacer.maxBusy)
        let moon = Self.night({ x, y in (x - 14) * (x - 14) + (y - 4) * (y - 4) <= 9 }, colour: (244, 239, 200))
        #expect(QuietPlacer.busyness(moon, under: Self.whole) > QuietPlacer.maxBusy)
    }
}
