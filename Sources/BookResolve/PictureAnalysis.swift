import Foundation

/// What looking at a picture's pixels tells: that its data decodes whole without a fault, its
/// thumbnail, and where its subject is. The same bytes always give the same analysis, so it is
/// kept by content in the user's cache (`PictureAnalysisCache`).
public struct PictureAnalysis: Sendable, Equatable {
    /// A JPEG whose every coefficient was decoded (for its thumbnail) without a fault.
    public var decodes: Bool
    /// Nil when the picture does not decode.
    public var thumbnail: Thumbnail?
    /// The subject `SubjectEstimator` found; nil until someone needed it.
    public var estimate: PictureSubject?

    public init(decodes: Bool, thumbnail: Thumbnail?, estimate: PictureSubject? = nil) {
        self.decodes = decodes; self.thumbnail = thumbnail; self.estimate = estimate
    }
}

/// The analysis as bytes, for the cache: fixed-size numbers, little-endian. Reading checks every
/// length against what is left, so a damaged entry is nil, never a crash.
extension PictureAnalysis {
    func encoded() -> Data {
        var out = ByteWriter()
        out.byte(decodes ? 1 : 0)
        out.byte(thumbnail == nil ? 0 : 1)
        if let thumbnail { out.thumbnail(thumbnail) }
        out.byte(estimate == nil ? 0 : 1)
        if let e = estimate {
            for v in [e.box.x, e.box.y, e.box.width, e.box.height, e.centre.x, e.centre.y] { out.double(v) }
            out.byte(e.source == .given ? 1 : 0)
            out.int(e.grid.width); out.int(e.grid.height)
            out.floats(e.weights)
            // Nearly always the analysis's own thumbnail: said, not written twice.
            if let t = e.thumbnail, t == thumbnail {
                out.byte(2)
            } else {
                out.byte(e.thumbnail == nil ? 0 : 1)
                if let t = e.thumbnail { out.thumbnail(t) }
            }
            switch e.doubt {
            case nil: out.byte(0)
            case .spread: out.byte(1)
            case .rival(let x, let y, let otherX, let otherY):
                out.byte(2)
                for v in [x, y, otherX, otherY] { out.double(v) }
            }
        }
        return out.data
    }

    init?(decoding data: Data) {
        var r = ByteReader(data)
        guard let decodes = r.byte(), let hasThumbnail = r.byte() else { return nil }
        var thumbnail: Thumbnail?
        if hasThumbnail == 1 {
            guard let t = r.thumbnail() else { return nil }
            thumbnail = t
        }
        guard let hasEstimate = r.byte() else { return nil }
        var estimate: PictureSubject?
        if hasEstimate == 1 {
            var v: [Double] = []
            for _ in 0..<6 { guard let d = r.double() else { return nil }; v.append(d) }
            guard let source = r.byte(), let gw = r.int(), let gh = r.int(), gw >= 0, gh >= 0,
                  let weights = r.floats(), weights.count == gw * gh, let hasOwn = r.byte() else { return nil }
            var own: Thumbnail?
            switch hasOwn {
            case 0: break
            case 1:
                guard let t = r.thumbnail() else { return nil }
                own = t
            case 2:
                guard let thumbnail else { return nil }
                own = thumbnail
            default: return nil
            }
            var subject = PictureSubject(box: UnitRect(x: v[0], y: v[1], width: v[2], height: v[3]), centre: (v[4], v[5]),
                                         source: source == 1 ? .given : .estimated, weights: weights, grid: (gw, gh), thumbnail: own)
            switch r.byte() {
            case 0: break
            case 1: subject.doubt = .spread
            case 2:
                guard let x = r.double(), let y = r.double(), let ox = r.double(), let oy = r.double() else { return nil }
                subject.doubt = .rival(x: x, y: y, otherX: ox, otherY: oy)
            default: return nil
            }
            estimate = subject
        }
        guard r.atEnd, decodes <= 1 else { return nil }
        self.init(decodes: decodes == 1, thumbnail: thumbnail, estimate: estimate)
    }
}

private struct ByteWriter {
    var data = Data()
    mutating func byte(_ b: UInt8) { data.append(b) }
    mutating func int(_ v: Int) { withUnsafeBytes(of: Int64(v).littleEndian) { data.append(contentsOf: $0) } }
    mutating func double(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    mutating func floats(_ v: [Float]) {
        int(v.count)
        #if _endian(little)
        v.withUnsafeBytes { data.append(contentsOf: $0) }
        #else
        for f in v { withUnsafeBytes(of: f.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        #endif
    }
    /// The cells in CIELAB follow the colours: working them out again was most of a re-export's
    /// placing of words over pictures.
    mutating func thumbnail(_ t: Thumbnail) {
        int(t.width); int(t.height)
        floats(t.red); floats(t.green); floats(t.blue)
        let lab = t.lab
        floats(lab.map(\.l)); floats(lab.map(\.a)); floats(lab.map(\.b))
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var at = 0
    init(_ data: Data) { bytes = [UInt8](data) }
    var atEnd: Bool { at == bytes.count }

    mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, bytes.count - at >= n else { return nil }
        defer { at += n }
        return bytes[at..<at + n]
    }
    mutating func byte() -> UInt8? { take(1)?.first }
    mutating func u64() -> UInt64? {
        guard let s = take(8) else { return nil }
        return s.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
    mutating func int() -> Int? {
        guard let v = u64(), let i = Int(exactly: Int64(bitPattern: v)) else { return nil }
        return i
    }
    mutating func double() -> Double? { u64().map { Double(bitPattern: $0) } }
    mutating func floats() -> [Float]? {
        guard let n = int(), n >= 0, n <= (bytes.count - at) / 4 else { return nil }
        var out = [Float](repeating: 0, count: n)
        #if _endian(little)
        out.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[at..<at + 4 * n]))
            }
        }
        at += 4 * n
        #else
        for i in 0..<n {
            let s = take(4)!
            out[i] = Float(bitPattern: s.reversed().reduce(0) { $0 << 8 | UInt32($1) })
        }
        #endif
        return out
    }
    mutating func thumbnail() -> Thumbnail? {
        guard let w = int(), let h = int(), w > 0, h > 0, w <= 4096, h <= 4096, let r = floats(), let g = floats(), let b = floats(),
              r.count == w * h, g.count == r.count, b.count == r.count,
              let l = floats(), let a = floats(), let bb = floats(), l.count == r.count, a.count == r.count, bb.count == r.count
        else { return nil }
        return Thumbnail(width: w, height: h, red: r, green: g, blue: b,
                         lab: l.indices.map { CIELab(l: l[$0], a: a[$0], b: bb[$0]) })
    }
}
