// Frames drawn in Swift for the engine's unit tests: a card-like quad (light body, dark text lines, a portrait and
// an MRZ band) on a textured background, with optional blur, darkening, glare and noise, encoded with tjCompress2.
import CTurboJPEG
@testable import FrameAnalysis
import Foundation

struct SyntheticFrame {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// A deterministic pseudo-random generator (tests must not depend on the system RNG).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func unit() -> Double { Double(next() % 1_000_000) / 1_000_000 }
    }

    /// Background: a brightness gradient with random rectangles and noise (clutter that is not card-shaped).
    static func background(width: Int, height: Int, seed: UInt64 = 7, base: Double = 90) -> SyntheticFrame {
        var random = Random(state: seed)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let g = base + 30 * Double(x) / Double(width) - 15 * Double(y) / Double(height)
                pixels[y * width + x] = UInt8(max(0, min(255, g + Double(random.next() % 17) - 8)))
            }
        }
        var frame = SyntheticFrame(width: width, height: height, pixels: pixels)
        for _ in 0..<10 {
            let w = Int(random.unit() * Double(width) * 0.12) + 4, h = Int(random.unit() * Double(height) * 0.12) + 4
            let x = Int(random.unit() * Double(width - w)), y = Int(random.unit() * Double(height - h))
            let v = UInt8(40 + random.next() % 120)
            frame.fill(x: x, y: y, width: w, height: h, value: v)
        }
        return frame
    }

    /// A `width` × `height` gray image painted by `paint` (x, y → luma), with ±3 of deterministic noise (`seed`) as a
    /// sensor adds, clamped to 0…255: the analysis steps' own input, without a JPEG round trip.
    static func grayImage(width: Int, height: Int, seed: UInt64, _ paint: (Int, Int) -> Double) -> GrayImage {
        var random = Random(state: seed)
        let image = GrayImage()
        image.resize(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = paint(x, y) + Double(random.next() % 7) - 3
                image.pixels[y * width + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return image
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, value: UInt8) {
        for yy in max(0, y)..<min(height, y + h) {
            for xx in max(0, x)..<min(width, x + w) { pixels[yy * width + xx] = value }
        }
    }

    /// Draws a card whose unit square (u, v ∈ 0…1) maps to the quad `corners` (TL, TR, BR, BL) by a homography,
    /// with 4× supersampling on its outline so the edges are anti-aliased like a camera's; `photo` false leaves the
    /// portrait out (its place is the card's body).
    mutating func drawCard(corners: [(Double, Double)], body: Double = 225, photo: Bool = true) {
        let h = Self.homography(to: corners)
        let xs = corners.map(\.0), ys = corners.map(\.1)
        let x0 = max(0, Int(xs.min()!) - 1), x1 = min(width - 1, Int(xs.max()!) + 1)
        let y0 = max(0, Int(ys.min()!) - 1), y1 = min(height - 1, Int(ys.max()!) + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        let inverse = Self.invert(h)
        for y in y0...y1 {
            for x in x0...x1 {
                var sum = 0.0, inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4, py = Double(y) + (Double(sy) + 0.5) / 4
                        let (u, v) = Self.apply(inverse, px - 0.5, py - 0.5)
                        guard u >= 0, u <= 1, v >= 0, v <= 1 else { continue }
                        inside += 1
                        sum += Self.cardShade(u: u, v: v, body: body, photo: photo)
                    }
                }
                guard inside > 0 else { continue }
                let old = Double(pixels[y * width + x])
                let value = (sum + old * Double(16 - inside)) / 16
                pixels[y * width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
    }

    /// The card's printed content at (u, v): photo box, text lines, MRZ band. Drawn as a card's face is, not as a
    /// pattern: a head-and-shoulders portrait, text lines of words whose glyphs differ, and an MRZ of two lines of
    /// monospaced characters that differ too. (A plaid photo and strictly periodic print repeat as a keypad does,
    /// which a card's face does not; docs/capture.md, "Repeating insides".)
    private static func cardShade(u: Double, v: Double, body: Double, photo: Bool) -> Double {
        if photo && u > 0.05 && u < 0.3 && v > 0.15 && v < 0.7 {
            // Printed on the card's stock: a darker card has a darker photo too.
            return portraitShade(a: (u - 0.05) / 0.25, b: (v - 0.15) / 0.55) * body / 225
        }
        if v > 0.78 && v < 0.93 && u > 0.05 && u < 0.95 {
            // Two lines of 44 characters, each glyph taking 5/6 of its cell's width and 7/9 of its height.
            let row = v < 0.855 ? 0 : 1
            let top = row == 0 ? 0.785 : 0.86
            let column = Int((u - 0.05) / 0.9 * 44), x = (u - 0.05) / 0.9 * 44 - Double(column)
            let y = (v - top) / 0.065
            guard y >= 0, y < 1 else { return body - 20 }
            return glyphInk(code: UInt64(row * 64 + column) &+ 0x4D525A, x: x * 6 / 5, y: y * 9 / 7) ? 40 : body - 20
        }
        for line in 0..<5 {
            let top = 0.18 + Double(line) * 0.1
            if v > top && v < top + 0.045 && u > 0.36 && u < 0.9 - Double(line % 3) * 0.1 {
                // Characters 0.018 wide; about one in five is a space between words.
                let column = Int((u - 0.36) / 0.018), x = (u - 0.36) / 0.018 - Double(column)
                let code = UInt64(line * 100 + column)
                if mix(code &+ 0x7E47) % 5 == 0 { return body }
                return glyphInk(code: code, x: x * 5 / 4, y: (v - top) / 0.045) ? 45 : body
            }
        }
        return body
    }

    /// A glyph of character `code`: a 4 × 5 grid of cells over (x, y) ∈ 0…1 (x past 1 is the gap between characters),
    /// each inked or not from a hash of the code.
    private static func glyphInk(code: UInt64, x: Double, y: Double) -> Bool {
        guard x >= 0, x < 1, y >= 0, y < 1 else { return false }
        let bit = Int(y * 5) * 4 + Int(x * 4)
        return (mix(code) >> UInt64(bit)) & 1 == 1
    }

    /// SplitMix64's finaliser: a well-mixed hash of `value`.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A head-and-shoulders portrait over the photo box's own coordinates (a, b ∈ 0…1): a light backdrop, dark
    /// clothes, a neck, a face with eyes and a mouth, and hair.
    private static func portraitShade(a: Double, b: Double) -> Double {
        func inEllipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> Bool {
            let dx = (a - cx) / rx, dy = (b - cy) / ry
            return dx * dx + dy * dy < 1
        }
        if inEllipse(0.5, 1.08, 0.52, 0.3) { return 70 }  // shoulders
        let face = inEllipse(0.5, 0.44, 0.22, 0.27)
        if face {
            if inEllipse(0.41, 0.41, 0.045, 0.022) || inEllipse(0.59, 0.41, 0.045, 0.022) { return 55 }  // eyes
            if inEllipse(0.5, 0.59, 0.075, 0.018) { return 105 }  // mouth
        }
        if inEllipse(0.5, 0.36, 0.26, 0.27) && b < 0.3 { return 50 }  // hair
        if face { return 170 - 25 * abs(a - 0.5) }
        if abs(a - 0.5) < 0.09 && b > 0.6 { return 150 }  // neck
        return 160 - 25 * b
    }

    /// Multiplies every pixel (darkening < 1, over-exposure > 1).
    mutating func scaleBrightness(_ factor: Double) {
        for i in pixels.indices { pixels[i] = UInt8(max(0, min(255, (Double(pixels[i]) * factor).rounded()))) }
    }

    /// A saturated elliptical highlight (specular glare).
    mutating func addGlare(centreX: Double, centreY: Double, radiusX: Double, radiusY: Double) {
        for y in 0..<height {
            for x in 0..<width {
                let dx = (Double(x) - centreX) / radiusX, dy = (Double(y) - centreY) / radiusY
                let d = dx * dx + dy * dy
                if d < 1 { pixels[y * width + x] = 255 }
            }
        }
    }

    /// Box blur of the given radius, `passes` times (three passes ≈ Gaussian); horizontal only for motion blur.
    mutating func blur(radius: Int, passes: Int = 3, horizontalOnly: Bool = false) {
        for _ in 0..<passes {
            pixels = Self.boxBlur(pixels, width: width, height: height, radius: radius, dx: 1)
            if !horizontalOnly { pixels = Self.boxBlur(pixels, width: width, height: height, radius: radius, dx: 0) }
        }
    }

    private static func boxBlur(_ src: [UInt8], width: Int, height: Int, radius: Int, dx: Int) -> [UInt8] {
        var out = src
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0, count = 0
                for k in -radius...radius {
                    let xx = dx == 1 ? x + k : x, yy = dx == 1 ? y : y + k
                    guard xx >= 0, xx < width, yy >= 0, yy < height else { continue }
                    sum += Int(src[yy * width + xx])
                    count += 1
                }
                out[y * width + x] = UInt8(sum / count)
            }
        }
        return out
    }

    /// Gaussian-ish sensor noise of the given amplitude.
    mutating func addNoise(amplitude: Int, seed: UInt64 = 11) {
        var random = Random(state: seed)
        for i in pixels.indices {
            let n = Int(random.next() % UInt64(2 * amplitude + 1)) - amplitude
            pixels[i] = UInt8(max(0, min(255, Int(pixels[i]) + n)))
        }
    }

    /// JPEG bytes (gray, given quality) from libjpeg-turbo.
    func jpeg(quality: Int = 85, progressive: Bool = false) -> [UInt8] {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let flags = progressive ? TJFLAG_PROGRESSIVE : 0
        let rc = pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(width), Int32(width), Int32(height), Int32(TJPF_GRAY.rawValue),
                        &buffer, &size, Int32(TJSAMP_GRAY.rawValue), Int32(quality), flags)
        }
        precondition(rc == 0, "tjCompress2 failed")
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    // MARK: Homography

    typealias Matrix = [Double]   // 3×3 row-major

    /// The homography mapping the unit square's corners (0,0),(1,0),(1,1),(0,1) to `corners`.
    static func homography(to corners: [(Double, Double)]) -> Matrix {
        let (x0, y0) = corners[0], (x1, y1) = corners[1], (x2, y2) = corners[2], (x3, y3) = corners[3]
        let dx1 = x1 - x2, dx2 = x3 - x2, dx3 = x0 - x1 + x2 - x3
        let dy1 = y1 - y2, dy2 = y3 - y2, dy3 = y0 - y1 + y2 - y3
        let det = dx1 * dy2 - dx2 * dy1
        let g = (dx3 * dy2 - dx2 * dy3) / det, h = (dx1 * dy3 - dx3 * dy1) / det
        return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0,
                y1 - y0 + g * y1, y3 - y0 + h * y3, y0,
                g, h, 1]
    }

    static func invert(_ m: Matrix) -> Matrix {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        return [A / det, -(b * i - c * h) / det, (b * f - c * e) / det,
                B / det, (a * i - c * g) / det, -(a * f - c * d) / det,
                C / det, -(a * h - b * g) / det, (a * e - b * d) / det]
    }

    static func apply(_ m: Matrix, _ x: Double, _ y: Double) -> (Double, Double) {
        let w = m[6] * x + m[7] * y + m[8]
        return ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }
}
