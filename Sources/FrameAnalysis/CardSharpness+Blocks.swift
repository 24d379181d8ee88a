// CardSharpness's step test on 16 samples at a time (every other pixel of a row), as 16-bit vector lanes.

extension CardSharpness {
    /// One direction's sums over 16 samples: for the samples at `p`, `p + 2`, … `p + 30`, the same test and terms
    /// as `measure`'s scalar `edge` (fine rise ≥ `floor`, the steepest point, a step at least the fine rise, no
    /// clipped pixel within reach), as (Σ af², Σ af · step) in 32-bit lanes. Every lane is judged, busy or flat:
    /// a flat pixel has no fine rise above the floor, so it adds nothing, as in the scalar walk that skips it.
    ///
    /// Why 16-bit lanes: pixels are the low bytes of 16 little-endian 16-bit words (the generic byte-vector
    /// conversions are out-of-line calls), differences fit, and both products are at most 255² (af ≤ step ≤ 255),
    /// so they fit unsigned 16-bit lanes before they are widened to 32 bits.
    @inline(__always)
    static func blockSums(_ p: UnsafeMutablePointer<UInt8>, direction d: Int, reach: Int, glareReach: Int,
                          floor: Int16) -> (squares: SIMD8<UInt32>, products: SIMD8<UInt32>) {
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
        var counted = af .>= SIMD16<Int16>(repeating: floor)
        // Only the steepest point of each edge profile.
        counted = counted .& (af .>= magnitude(pixels(p + 2 * d) &- centre))
            .& (af .>= magnitude(centre &- pixels(p - 2 * d)))
        // Only steps: the whole rise keeps the fine rise's sign and is not smaller.
        let ahead = pixels(p + reach * d), behind = pixels(p - reach * d)
        let step = (ahead &- behind).replacing(with: behind &- ahead, where: f .<= zero)
        counted = counted .& (step .>= af)
        // Not the falloff of a glare spot.
        let clipped = SIMD16<Int16>(repeating: Int16(clippedLuma))
        counted = counted .& .!((ahead .>= clipped) .| (behind .>= clipped) .| (pixels(p + glareReach * d) .>= clipped)
            .| (pixels(p - glareReach * d) .>= clipped))
        let a = unsafeBitCast(af.replacing(with: 0, where: .!counted), to: SIMD16<UInt16>.self)
        let s = unsafeBitCast(step.replacing(with: 0, where: .!counted), to: SIMD16<UInt16>.self)
        // Widened by halves: each 32-bit lane holds two 16-bit products.
        let squares = unsafeBitCast(a &* a, to: SIMD8<UInt32>.self)
        let products = unsafeBitCast(a &* s, to: SIMD8<UInt32>.self)
        let low = SIMD8<UInt32>(repeating: 0xffff)
        return ((squares & low) &+ (squares &>> 16), (products & low) &+ (products &>> 16))
    }
}
