import Foundation
import BookBase
import BookResolve
import BookConfig
import CGraphics

/// Draws a deterministic picture offline from the scene text and the book's palette: the same
/// scene always gives the same pixels, so the step works (and is testable) with no network.
struct LocalProvider: NamedProvider {
    static let defaultModel = "local-1"
    static let defaultBaseURL = ""
    static let keyVariable: String? = nil

    let model: String
    let palette: [Color]

    init(settings: ProviderSettings) { self.init(model: settings.model, palette: settings.palette) }

    init(model: String, palette: [String]) {
        self.model = model
        let colors = palette.compactMap(Color.init(hex:))
        self.palette = colors.count >= 3 ? colors
            : ["#FFF4E0", "#E07A2F", "#3C6E71", "#F2C14E", "#2F2A25", "#8FB996"].compactMap(Color.init(hex:))
    }

    var name: String { "local" }

    func pixelSize(_ request: GenerationRequest) -> (Int, Int) {
        var long = request.resolution == .preview ? 768.0 : 1536.0
        let a = request.job.aspect.value
        // A place too large for that (a big trim's spread) gets the fewest pixels it may have.
        if let least = request.job.place?.minimumPixels(request.resolution) {
            long = max(long, (a >= 1 ? max(Double(least.width), Double(least.height) * a)
                                     : max(Double(least.height), Double(least.width) / a)).rounded(.up))
        }
        return a >= 1 ? (Int(long), Int((long / a).rounded())) : (Int((long * a).rounded()), Int(long))
    }

    func askedShape(for request: GenerationRequest) -> AskedShape {
        let (w, h) = pixelSize(request)
        return AskedShape(name: "\(w)x\(h)", ratio: Double(w) / Double(h))
    }

    func sizeKey(for request: GenerationRequest) -> String {
        let (w, h) = pixelSize(request)
        return "\(w)x\(h)"
    }

    func estimatedCost(_ request: GenerationRequest) -> Double? { 0 }

    func generate(_ request: GenerationRequest) async throws(ProviderFailure) -> Data {
        do {
            return try draw(request)
        } catch {
            throw ProviderFailure(.invalid, "local: \(error)")
        }
    }

    /// Every cairo object lives and dies inside this call, so concurrent calls share nothing.
    func draw(_ request: GenerationRequest) throws -> Data {
        let (w, h) = pixelSize(request)
        var rng = SceneRandom(seed: request.job.scene + "\n" + request.prompt)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h)) else {
            throw IllustrateError("cannot create a \(w)×\(h) surface")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let W = Double(w), H = Double(h)
        func pick() -> Color { palette[rng.int(palette.count)] }
        func set(_ c: Color, _ alpha: Double = 1) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, alpha) }

        // Sky: a vertical wash between the palette's lightest colour and another.
        let sky = palette[0]
        let gradient = cairo_pattern_create_linear(0, 0, 0, H)!
        cairo_pattern_add_color_stop_rgb(gradient, 0, sky.red, sky.green, sky.blue)
        let low = sky.mixed(with: pick(), 0.35)
        cairo_pattern_add_color_stop_rgb(gradient, 1, low.red, low.green, low.blue)
        cairo_set_source(cr, gradient)
        cairo_paint(cr)
        cairo_pattern_destroy(gradient)

        // A sun or moon.
        set(pick())
        cairo_arc(cr, W * rng.unit(0.15, 0.85), H * rng.unit(0.08, 0.3), min(W, H) * rng.unit(0.06, 0.12), 0, 2 * .pi)
        cairo_fill(cr)

        // Rolling hills, back to front, each a shade darker.
        let hills = 2 + rng.int(3)
        for i in 0..<hills {
            let base = H * (0.5 + 0.12 * Double(i)) + H * rng.unit(-0.05, 0.05)
            set(pick().mixed(with: .black, 0.08 * Double(i)))
            cairo_move_to(cr, 0, base)
            cairo_curve_to(cr, W * 0.3, base - H * rng.unit(0.02, 0.15), W * 0.6, base + H * rng.unit(-0.1, 0.1), W, base - H * rng.unit(0, 0.1))
            cairo_line_to(cr, W, H); cairo_line_to(cr, 0, H); cairo_close_path(cr)
            cairo_fill(cr)
        }

        // Scattered shapes: one per word group of the scene, so different scenes look different.
        let shapes = 4 + rng.int(6)
        for _ in 0..<shapes {
            set(pick(), rng.unit(0.5, 0.95))
            let x = W * rng.unit(0.05, 0.95), y = H * rng.unit(0.3, 0.95), r = min(W, H) * rng.unit(0.02, 0.07)
            if rng.int(2) == 0 {
                cairo_arc(cr, x, y, r, 0, 2 * .pi)
            } else {
                cairo_move_to(cr, x, y - r); cairo_line_to(cr, x + r, y + r); cairo_line_to(cr, x - r, y + r); cairo_close_path(cr)
            }
            cairo_fill(cr)
        }

        // The main figure, always in the lower middle third, so pages read as one book.
        let fx = W * rng.unit(0.35, 0.65), fy = H * 0.72, fr = min(W, H) * 0.09
        set(palette[1 % palette.count])
        cairo_arc(cr, fx, fy, fr, 0, 2 * .pi); cairo_fill(cr)
        cairo_arc(cr, fx, fy - fr * 1.5, fr * 0.7, 0, 2 * .pi); cairo_fill(cr)
        set(palette[min(4, palette.count - 1)])
        cairo_arc(cr, fx - fr * 0.25, fy - fr * 1.6, fr * 0.1, 0, 2 * .pi); cairo_fill(cr)
        cairo_arc(cr, fx + fr * 0.25, fy - fr * 1.6, fr * 0.1, 0, 2 * .pi); cairo_fill(cr)

        return try TemporaryFiles.withScratchFile("local.png") { tmp in
            try PNGWriter.write(surface: surface, to: tmp.path, dpi: request.resolution == .preview ? 96 : 300)
            return try Data(contentsOf: tmp)
        }
    }
}

/// A small deterministic generator seeded from the scene's hash.
struct SceneRandom {
    var state: UInt64

    init(seed text: String) {
        let hex = SHA256.hex(text)
        state = UInt64(hex.prefix(16), radix: 16) ?? 0x9E3779B97F4A7C15
    }

    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }

    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func unit(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
}
