// CardSharpness's step test on 16 samples at a time (every other pixel of a row), as 16-bit vector lanes.

extension CardSharpness {
    // One direction's test on 16 samples at `p`, `p + 2`, … `p + 30`: the same test and terms as the scalar `edge` of
    // `stepSums` (fine rise ≥ `riseFloor`, the steepest point, a step at least the fine rise and `stepFloor`, no
    // clipped pixel within reach), in two parts: `blockRise`, which does not depend on the step's reach (read once for
    // both reaches in `measureWithWideRows`), and `blockStepTerms`, (Σ af³, Σ af² · step) for one reach in 32-bit lanes
    // (two samples each). Every lane is judged, busy or flat: a flat pixel has no fine rise above the floor, so it adds
    // nothing, as in the scalar walk that skips it.
    //
    // Why 16-bit lanes: pixels are the low bytes of 16 little-endian 16-bit words (the generic byte-vector
    // conversions are out-of-line calls), differences fit, and af² ≤ 255² fits an unsigned 16-bit lane; the terms
    // (≤ 255³) are formed in 32-bit lanes.

    /// The fine rise of 16 samples, its magnitude, and the samples that may count (`blockRise`).
    typealias BlockRise = (f: SIMD16<Int16>, af: SIMD16<Int16>, counted: SIMDMask<SIMD16<Int16>.MaskStorage>)

    /// The 16 samples' part of the test that does not depend on the step's reach: the fine rise `f` and its
    /// magnitude, and which samples may count (a fine rise at the floor, at the steepest point, no clipped pixel
    /// `glareReach` either side).
    /// (`@_transparent`, not `@inline(__always)`: with the latter the compiler left it a call, four per block, and
    /// inlined it is 4.8 M of 1,347 M instructions fewer on 40 tracked frames, session 51.)
    @_transparent
    static func blockRise(_ p: UnsafeMutablePointer<UInt8>, direction d: Int, glareReach: Int,
                          riseFloor: Int16) -> BlockRise {
        let centre = pixels(p)
        let f = pixels(p + d) &- pixels(p - d)
        let af = magnitude(f)
        var counted = af .>= SIMD16<Int16>(repeating: riseFloor)
        // Only the steepest point of each edge profile.
        counted = counted .& (af .>= magnitude(pixels(p + 2 * d) &- centre))
            .& (af .>= magnitude(centre &- pixels(p - 2 * d)))
        // Not the falloff of a glare spot (the step's own ends are checked with the step).
        let clipped = SIMD16<Int16>(repeating: Int16(clippedLuma))
        counted = counted .& .!((pixels(p + glareReach * d) .>= clipped) .| (pixels(p - glareReach * d) .>= clipped))
        return (f, af, counted)
    }

    /// The samples' terms for steps read `reach` pixels either side: only steps (the whole rise keeps the fine
    /// rise's sign, is not smaller and is above the noise floor) whose ends are not clipped.
    @inline(__always)
    static func blockStepTerms(_ p: UnsafeMutablePointer<UInt8>, direction d: Int,
                               rise: BlockRise, reach: Int,
                               stepFloor: Int16) -> (cubes: SIMD8<UInt32>, products: SIMD8<UInt32>) {
        let zero = SIMD16<Int16>(repeating: 0)
        let ahead = pixels(p + reach * d), behind = pixels(p - reach * d)
        let step = (ahead &- behind).replacing(with: behind &- ahead, where: rise.f .<= zero)
        let clipped = SIMD16<Int16>(repeating: Int16(clippedLuma))
        let counted = rise.counted .& (step .>= rise.af) .& (step .>= SIMD16<Int16>(repeating: stepFloor))
            .& .!((ahead .>= clipped) .| (behind .>= clipped))
        let a = unsafeBitCast(rise.af.replacing(with: 0, where: .!counted), to: SIMD16<UInt16>.self)
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

    /// 16 samples, every other pixel from `q`: the low bytes of 16 little-endian 16-bit words.
    @inline(__always)
    private static func pixels(_ q: UnsafeMutablePointer<UInt8>) -> SIMD16<Int16> {
        UnsafeRawPointer(q).loadUnaligned(as: SIMD16<Int16>.self) & SIMD16<Int16>(repeating: 0xff)
    }

    @inline(__always)
    private static func magnitude(_ v: SIMD16<Int16>) -> SIMD16<Int16> {
        let zero = SIMD16<Int16>(repeating: 0)
        return v.replacing(with: zero &- v, where: v .< zero)
    }
}
