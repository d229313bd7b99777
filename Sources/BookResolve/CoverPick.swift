import BookModel

/// Which page picture a picture book without a cover picture shows on its cover: an illustration
/// (a spread's picture is wider than a cover) whose subject stands whole inside it, with a quiet
/// band above or below the subject for the title; the quietest wins, the earliest on a tie.
enum CoverPick {
    /// The title's band: the top or bottom third of the picture.
    static let bands = [UnitRect(x: 0, y: 0, width: 1, height: 0.33), UnitRect(x: 0, y: 0.67, width: 1, height: 0.33)]

    static func strongest(_ pages: [ResolvedPage]) -> (image: ImageSlot, subject: PictureSubject)? {
        var best: (image: ImageSlot, subject: PictureSubject, score: Double)?
        for page in pages where page.page.type == .illustration {
            guard case .asset(let asset) = page.image, let subject = page.subject, let thumbnail = subject.thumbnail,
                  asset.info.orientedHeight >= asset.info.orientedWidth * 3 / 4 else { continue }
            // The subject whole: not cut by the picture's edges.
            let box = subject.box
            guard box.x > 0.02, box.y > 0.02, box.x + box.width < 0.98, box.y + box.height < 0.98 else { continue }
            let score = bands.map { band in subject.weight(in: band) * 4 + spread(thumbnail, in: band) }.min() ?? .infinity
            if best == nil || score < best!.score { best = (page.image, subject, score) }
        }
        return best.map { ($0.image, $0.subject) }
    }

    /// How far the band's colours stray from their mean (RGB, 0…1): a flat sky is near 0.
    static func spread(_ t: Thumbnail, in band: UnitRect) -> Double {
        let x0 = Int(band.x * Double(t.width)), x1 = min(t.width, Int((band.x + band.width) * Double(t.width)))
        let y0 = Int(band.y * Double(t.height)), y1 = min(t.height, Int((band.y + band.height) * Double(t.height)))
        guard x1 > x0, y1 > y0 else { return .infinity }
        var cells: [Int] = []
        for y in y0..<y1 { for x in x0..<x1 { cells.append(y * t.width + x) } }
        func deviation(_ channel: [Float]) -> Double {
            let values = cells.map { Double(channel[$0]) }
            let mean = values.reduce(0, +) / Double(values.count)
            return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
        }
        return deviation(t.red) + deviation(t.green) + deviation(t.blue)
    }
}
