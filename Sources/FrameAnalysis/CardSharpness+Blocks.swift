// CardSharpness's step test on 16 samples at a time (every other pixel of a row), as 16-bit vector lanes.

extension CardSharpness {
    /// One direction's sums over 16 samples: for the samples at `p`, `p + 2`, … `p + 30`, the same test and terms
    /// as `measure`'s scalar `edge` (fine rise ≥ `riseFloor`, the steepest point, a step at least the fine rise and
    /// `stepFloor`, no clipped pixel within reach), as (Σ af³, Σ af² · step) in 32-bit lanes (two samples each).
    /// Every lane is judged, busy or flat: a flat pixel has no fine rise above the floor, so it adds nothing, as in
    /// the scalar walk that skips it.
    ///
    /// Why 16-bit lanes: pixels are the low bytes of 16 little-endian 16-bit words (the generic byte-vector
    /// conversions are out-of-line calls), differences fit, and af² ≤ 255² fits an unsigned 16-bit lane; the
    /// terms (≤ 255³) are formed in 32-bit lanes.
    @inline(__always)
    static func blockSums(_ p: UnsafeMutablePointer<UInt8>, direction d: Int, reach: Int, glareReach: Int,
                          riseFloor: Int16, stepFloor: Int16) -> (cubes: SIMD8<UInt32>, products: SIMD8<UInt32>) {
        let lowBytes = SIMD16<Int16>(repeating: 0xff), zero = SIMD16<Int16>(repeating: 0)
        @inline(__always) func pixels(_ q: UnsafeMutablePointer<UInt8>) -> SIMD16<Int16> {
            UnsafeRawPointer(q).loadUnaligned(as: SIMD16<Int16>.self) & lowBytes
        }
        @inline(__always) func magnitude(_ v: SIMD16<Int16>) -> SIMD16<Int16> {
            v.replacing(with: zero &- v, where: v .< zero)
        }
        let centre = pixels(p)
        let f = pixels(p + d) &- pixels(p - d)
        let af = magnitude(f)
        var counted = af .>= SIMD16<Int16>(repeating: riseFloor)
        // Only the steepest point of each edge profile.
        counted = counted .& (af .>= magnitude(pixels(p + 2 * d) &- centre))
            .& (af .>= magnitude(centre &- pixels(p - 2 * d)))
        // Only steps: the whole rise keeps the fine rise's sign, is not smaller and is above the noise floor.
        let ahead = pixels(p + reach * d), behind = pixels(p - reach * d)
        let step = (ahead &- behind).replacing(with: behind &- ahead, where: f .<= zero)
        counted = counted .& (step .>= af) .& (step .>= SIMD16<Int16>(repeating: stepFloor))
        // Not the falloff of a glare spot.
        let clipped = SIMD16<Int16>(repeating: Int16(clippedLuma))
        counted = counted .& .!((ahead .>= clipped) .| (behind .>= clipped) .| (pixels(p + glareReach * d) .>= clipped)
            .| (pixels(p - glareReach * d) .>= clipped))
        let a = unsafeBitCast(af.replacing(with: 0, where: .!counted), to: SIMD16<UInt16>.self)
        let s = unsafeBitCast(step.replacing(with: 0, where: .!counted), to: SIMD16<UInt16>.self)
        // af² fits a 16-bit lane (≤ 255²); af³ and af² · step need 32 bits: the even and odd 16-bit lanes are
        // widened apart (low and high halves of each 32-bit lane) and their two terms added.
        let low = SIMD8<UInt32>(repeating: 0xffff)
        let squares = unsafeBitCast(a &* a, to: SIMD8<UInt32>.self)
        let rises = unsafeBitCast(a, to: SIMD8<UInt32>.self), steps = unsafeBitCast(s, to: SIMD8<UInt32>.self)
        let evenSquares = squares & low, oddSquares = squares &>> 16
        let cubes = evenSquares &* (rises & low) &+ oddSquares &* (rises &>> 16)
        let products = evenSquares &* (steps & low) &+ oddSquares &* (steps &>> 16)
        return (cubes, products)
    }
}
