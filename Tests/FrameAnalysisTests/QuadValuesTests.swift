// The inline storage of a quad's corners and side flags, and the reordering that now works on it without arrays.
import Testing
@testable import FrameAnalysis

@Suite struct QuadValuesTests {
    @Test func indexesReadsAndWritesAsAnArrayDoes() {
        var corners: QuadCorners = [SIMD2(1, 2), SIMD2(3, 4), SIMD2(5, 6), SIMD2(7, 8)]
        #expect(corners.count == 4)
        #expect(corners[2] == SIMD2(5, 6))
        corners[3] = SIMD2(9, 9)
        #expect(Array(corners) == [SIMD2(1, 2), SIMD2(3, 4), SIMD2(5, 6), SIMD2(9, 9)])
        #expect(corners.mapValues { $0.x }.tuple == (1, 3, 5, 9))
        var flags = QuadSideFlags(repeating: false)
        flags[1] = true
        #expect(flags.contains(true) && flags.firstIndex(of: true) == 1)
    }

    /// `Quadrilateral.ordered` was a sort of an array by angle about the centre, then a rotation to the corner with the
    /// smallest x + y; now an insertion sort of the inline corners. The same order for every start and direction.
    @Test func orderingStartsTopLeftAndGoesClockwiseWhateverTheInputOrder() {
        let clockwise: [SIMD2<Double>] = [SIMD2(10, 12), SIMD2(110, 8), SIMD2(118, 70), SIMD2(6, 64)]
        for start in 0..<4 {
            for reversed in [false, true] {
                var input = (0..<4).map { clockwise[(start + $0) % 4] }
                if reversed { input.reverse() }
                #expect(Array(Quadrilateral.ordered(QuadCorners(input)).corners) == clockwise,
                        "start \(start), reversed \(reversed)")
            }
        }
    }

    @Test func boundsAreTheSmallestAndLargestCoordinates() {
        let corners: QuadCorners = [SIMD2(10, 12), SIMD2(110, 8), SIMD2(118, 70), SIMD2(6, 64)]
        let (lo, hi) = corners.bounds
        #expect(lo == SIMD2(6, 8) && hi == SIMD2(118, 70))
        #expect(Quadrilateral(corners: corners).boundingRows == (8, 71))
    }

    /// The finder's kept lists (`addFourthSides`) rely on this: emptied in their own storage, not a new buffer (which
    /// `removeAll(keepingCapacity:)` allocates while the property still shares the storage).
    @Test func aKeptListIsTakenOutEmptiedInItsOwnStorage() {
        var kept = [1, 2, 3]
        kept.reserveCapacity(64)
        let storage = kept.withUnsafeBufferPointer { $0.baseAddress }
        var taken = kept.takenEmptied()
        #expect(kept.isEmpty && taken.isEmpty && taken.capacity >= 64)
        #expect(taken.withUnsafeBufferPointer { $0.baseAddress } == storage)
        taken.append(4)
        #expect(taken == [4])
    }

    @Test func aQuadBuiltFromAnArrayKeepsItsCorners() {
        let points: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(4, 0), SIMD2(4, 2), SIMD2(0, 2)]
        let quad = Quadrilateral(corners: points)
        #expect(Array(quad.corners) == points)
        #expect(quad.area == 8)
        #expect(Array(quad.scaled(x: 2, y: 2).corners) == [SIMD2(0.5, 0.5), SIMD2(8.5, 0.5), SIMD2(8.5, 4.5), SIMD2(0.5, 4.5)])
    }
}
