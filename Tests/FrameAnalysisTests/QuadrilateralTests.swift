// The quad geometry the feedback rests on, checked on hand-computed cases.
import Testing
@testable import FrameAnalysis

@Suite struct QuadrilateralTests {
    func quad(_ points: [(Double, Double)]) -> Quadrilateral {
        Quadrilateral(corners: points.map { SIMD2($0.0, $0.1) })
    }

    @Test func aQuadInsideTheFrameGivesItsLongestSide() {
        let q = quad([(10, 10), (110, 10), (110, 60), (10, 60)])
        #expect(q.longestOutlineSideInside(width: 200, height: 100, tolerance: 2) == 100)
    }

    @Test func aSideLeavingTheFrameCountsOnlyItsPartInside() {
        // The top side runs from x = 50 to x = 250; the frame ends at x = 199.
        let q = quad([(50, 20), (250, 20), (250, 80), (50, 80)])
        #expect(q.longestOutlineSideInside(width: 200, height: 100, tolerance: 2) == 149)
    }

    @Test func sidesAlongTheFrameEdgeAreNotOutline() {
        // Closed by the frame's left edge (x = 0) and bottom edge (y = 99): only the top and right sides are seen.
        let q = quad([(0, 40), (80, 40), (80, 99), (0, 99)])
        #expect(q.longestOutlineSideInside(width: 200, height: 100, tolerance: 2) == 80)
        let beyond = quad([(-30, 50), (60, 50), (60, 130), (-30, 130)])
        #expect(beyond.longestOutlineSideInside(width: 200, height: 100, tolerance: 2) == 60)
    }

    @Test func aQuadWhollyOutsideShowsNoOutline() {
        let q = quad([(300, 10), (400, 10), (400, 60), (300, 60)])
        #expect(q.longestOutlineSideInside(width: 200, height: 100, tolerance: 2) == 0)
    }

    @Test func orientationFollowsTheLongerPairOfSides() {
        #expect(quad([(10, 10), (110, 15), (108, 70), (12, 65)]).longSideHorizontal)
        #expect(!quad([(10, 10), (70, 12), (68, 110), (12, 108)]).longSideHorizontal)
        // Rolled 30°: still nearer the horizontal.
        #expect(quad([(0, 0), (86.6, 50), (61.6, 93.3), (-25, 43.3)]).longSideHorizontal)
    }
}
