// Edges in a field of parallel stripes (docs/capture.md, "Stripe fields"): a desk's grain, corrugated card, a lined
// cloth. Such a field gives any line running along its stripes an edge at nearly every sample, so an outline side
// that runs on over it to the frame's border reads as a card's edge going out of view, though nothing there ends
// where the frame cuts it. A card's own edge has the card on one side and the background on the other, and no
// parallel edge just beside it on both sides with the same shade either side.

/// One line's view of the detection image's gradients for the stripe test: whether the edge pixel at a sample has a
/// separate edge of the same orientation within `reach` px across the line on both sides (beyond a gap below the weak
/// threshold: an edge is blurred over 2-3 px, and its own neighbours are no second edge), and the shade 3-8 px to
/// either side is about the same (`flatShare` of the step 2 px to either side, at most): a field of stripes, not a
/// boundary between two regions.
struct StripeField {
    static let reach = 6
    static let flatShare = 0.5

    /// The detection image and its gradients, as the test reads them.
    struct Image {
        let source: UnsafePointer<UInt8>
        let gx: UnsafePointer<Int16>
        let gy: UnsafePointer<Int16>
        let magnitude: UnsafePointer<UInt16>
        let width: Int
        let height: Int
        /// The gradients' weak threshold: an edge pixel's magnitude is at least this.
        let weak: UInt16
    }

    let image: Image
    /// The line's unit normal.
    let normal: SIMD2<Double>

    /// The pixel index `k` px across the line from `p` (clamped into the image).
    @inline(__always) func index(_ p: SIMD2<Double>, _ k: Double) -> Int {
        let x = Int(p.x + normal.x * k + 0.5), y = Int(p.y + normal.y * k + 0.5)
        let width = image.width, height = image.height
        return (y < 0 ? 0 : (y >= height ? height - 1 : y)) * width + (x < 0 ? 0 : (x >= width ? width - 1 : x))
    }

    /// Whether a separate edge parallel to the line lies within `reach` px on the side `sign` of `p`.
    @inline(__always) func parallelEdge(_ p: SIMD2<Double>, _ sign: Double) -> Bool {
        let magnitude = image.magnitude, gx = image.gx, gy = image.gy, weak = image.weak
        var gap = false
        for k in 1...Self.reach {
            let j = index(p, sign * Double(k))
            guard magnitude[j] >= weak else {
                gap = true
                continue
            }
            guard gap else { continue }
            let fx = Double(gx[j]), fy = Double(gy[j])
            let dot = fx * normal.x + fy * normal.y
            if dot * dot >= 0.75 * (fx * fx + fy * fy) { return true }
        }
        return false
    }

    /// Whether the edge pixel at `p` lies in a field of stripes parallel to the line.
    @inline(__always) func contains(_ p: SIMD2<Double>) -> Bool {
        guard parallelEdge(p, 1), parallelEdge(p, -1) else { return false }
        let source = image.source
        var a = 0, b = 0
        for k in 3...8 {
            a += Int(source[index(p, Double(k))])
            b += Int(source[index(p, -Double(k))])
        }
        let step = abs(Int(source[index(p, 2)]) - Int(source[index(p, -2)]))
        return Double(abs(a - b)) / 6 < Self.flatShare * Double(max(step, 1))
    }
}
