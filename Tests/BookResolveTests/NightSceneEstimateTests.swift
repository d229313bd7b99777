import Foundation
import Testing
@testable import BookResolve
import BookModel
import BookTestSupport

private func asset(_ data: Data, _ name: String) throws -> ImageAsset {
    ImageAsset(data: data, info: try ImageProbe.probe(data), origin: name)
}

private func thumbnail(_ data: Data) throws -> Thumbnail {
    try #require(Thumbnail.make(try asset(data, "scene.png")))
}

/// The figure's box in shares of a `width` × `height` picture.
private func unitBox(_ f: SceneFigure, _ width: Double, _ height: Double) -> UnitRect {
    let b = f.box
    return UnitRect(x: b.x / width, y: b.y / height, width: b.width / width, height: b.height / height)
}

private func character() throws -> CharacterColours {
    try #require(CharacterColours(reference: try thumbnail(NightScenes.reference()), id: "reference"))
}

/// A reader looks at the figure, not at the moon: subjects found by position, size, contrast
/// with what is around them, and the main character's colours.
@Suite("Subject estimate in night scenes")
struct NightSceneEstimateTests {
    static let figure = SceneFigure(x: 380, foot: 500, height: 90)

    @Test func theFigureUnderTheMoonIsTheSubject() throws {
        let t = try thumbnail(NightScenes.night(width: 900, height: 600, figure: Self.figure))
        let subject = SubjectEstimator.estimate(t)
        let figure = unitBox(Self.figure, 900, 600)
        let r = 0.065 * 900  // as NightScenes draws it
        let moon = UnitRect(x: (0.78 * 900 - r) / 900, y: (0.2 * 600 - r) / 600, width: 2 * r / 900, height: 2 * r / 600)
        #expect(figure.overlap(subject.box) / figure.area > 0.9, "box \(subject.box), figure \(figure)")
        #expect(subject.box.area < 4 * figure.area, "box \(subject.box) holds more than the figure \(figure)")
        #expect(subject.boxShare(in: moon) == 0, "box \(subject.box) reaches the moon")
        #expect(subject.weight(in: moon) < 0.05, "the moon keeps \(subject.weight(in: moon)) of the weight")
        let around = UnitRect(x: figure.x - 0.03, y: figure.y - 0.03, width: figure.width + 0.06, height: figure.height + 0.06)
        #expect(subject.weight(in: around) > 0.8, "the figure holds \(subject.weight(in: around)) of the weight")
        #expect(subject.doubt == nil)
    }

    /// A tall figure standing high in the picture, its coat one flat colour near the sky's kind:
    /// only the coat's outline stands out of the threshold, and the subject still runs from the
    /// hat to the boots, so no title is set across the coat.
    @Test func aFlatCoatIsPartOfTheFigure() throws {
        let figure = SceneFigure(x: 600, foot: 520, height: 440)
        let t = try thumbnail(NightScenes.night(width: 1200, height: 900, figure: figure))
        let subject = SubjectEstimator.estimate(t)
        let box = unitBox(figure, 1200, 900)
        #expect(box.overlap(subject.box) / box.area > 0.85, "box \(subject.box), figure \(box)")
        let coat = UnitRect(x: box.x, y: box.y + box.height * 0.4, width: box.width, height: box.height * 0.45)
        #expect(subject.weight(in: coat) > 0.15, "the coat holds \(subject.weight(in: coat)) of the weight")
    }

    /// A lit cottage bigger than the figure, as striking: on its own the estimate cannot choose and
    /// says so; with the character's reference picture it takes the figure.
    @Test func theCharactersColoursPickTheCharacter() throws {
        let cottage = """
            fill #8A4B2A
            rectangle 600,380 800,500
            fill #B23A2A
            polygon 590,380 810,380 700,300
            fill #FFD66B
            rectangle 630,410 680,450
            rectangle 720,410 770,450
            """
        let figure = SceneFigure(x: 260, foot: 505, height: 80)
        let t = try thumbnail(NightScenes.night(width: 900, height: 600, figure: figure, tree: 100, extra: cottage))
        let box = unitBox(figure, 900, 600)
        let house = UnitRect(x: 590.0 / 900, y: 300.0 / 600, width: 220.0 / 900, height: 200.0 / 600)

        let plain = SubjectEstimator.estimate(t)
        #expect(plain.weight(in: house) > 0.3, "the cottage stands out on its own: \(plain.weight(in: house))")
        #expect(plain.doubt != nil || plain.weight(in: house) > plain.weight(in: box), "box \(plain.box)")

        let known = SubjectEstimator.estimate(t, character: try character())
        #expect(box.overlap(known.box) / box.area > 0.9, "box \(known.box), figure \(box)")
        #expect(known.box.overlap(house) / house.area < 0.1, "box \(known.box) takes in the cottage \(house)")
        #expect(known.weight(in: box.outset(0.03)) > 0.7, "the figure holds \(known.weight(in: box.outset(0.03)))")
        #expect(known.doubt == nil)
    }

    @Test func theCharactersColoursAreLearnedWithoutTheirBackground() throws {
        let model = try character()
        let t = try thumbnail(NightScenes.night(width: 900, height: 600, figure: Self.figure))
        let match = model.match(t)
        let figure = unitBox(Self.figure, 900, 600)
        var inside: [Float] = [], outside: [Float] = []
        for y in 0..<t.height {
            for x in 0..<t.width {
                let cx = (Double(x) + 0.5) / Double(t.width), cy = (Double(y) + 0.5) / Double(t.height)
                let m = match[y * t.width + x]
                if cx > figure.x + 0.01, cx < figure.maxX - 0.01, cy > figure.y + 0.02, cy < figure.maxY - 0.02 { inside.append(m) }
                else if !(cx > figure.x - 0.03 && cx < figure.maxX + 0.03 && cy > figure.y - 0.03 && cy < figure.maxY + 0.03) { outside.append(m) }
            }
        }
        let meanInside = inside.reduce(0, +) / Float(inside.count)
        #expect(meanInside > 0.4, "the figure's cells match at \(meanInside)")
        // The sky, the moon (near the cream the reference stands on) and the hill do not.
        #expect((outside.max() ?? 1) < 0.35, "a cell away from the figure matches at \(outside.max() ?? 1)")
        // A scene with no plain background is no character sheet.
        #expect(CharacterColours(reference: t, id: "scene") == nil)
    }

    /// Two like figures far apart: the estimate says it is unsure, and where it would look.
    @Test func twoRivalsMakeTheEstimateUnsure() throws {
        let left = SceneFigure(x: 180, foot: 520, height: 90), right = SceneFigure(x: 720, foot: 520, height: 90)
        let t = try thumbnail(NightScenes.night(width: 900, height: 600, figure: left, tree: -200, extra: right.mvg))
        let subject = SubjectEstimator.estimate(t)
        guard case .rival(let x, _, let otherX, _)? = subject.doubt else {
            Issue.record("no doubt for two like figures: \(String(describing: subject.doubt)), box \(subject.box)")
            return
        }
        let figures = [(left.x / 900), (right.x / 900)]
        #expect(figures.contains { abs($0 - x) < 0.05 } && figures.contains { abs($0 - otherX) < 0.05 } && abs(x - otherX) > 0.5,
                "rivals at x \(x) and \(otherX), figures at \(figures)")
    }

    @Test func theSameSceneGivesTheSameEstimate() throws {
        let t = try thumbnail(NightScenes.night(width: 900, height: 600, figure: Self.figure))
        let model = try character()
        #expect(SubjectEstimator.estimate(t, character: model) == SubjectEstimator.estimate(t, character: model))
    }
}

extension UnitRect {
    func outset(_ d: Double) -> UnitRect { UnitRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d) }
}
