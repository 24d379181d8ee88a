// Opposite sides converging past 60°: a card turned steeply near the camera (`DocumentFinder.minConvergingCosine`,
// `convergesAsACard`; docs/capture.md, "Document quad").
import Testing
@testable import FrameAnalysis

@Suite struct ConvergingSidesTests {
    /// The stretches of lines 2 and 3 between lines 0 and 1, from a table of crossings as `crossActiveLines` keeps
    /// them (row: a line's position in `active`, column: the other line's).
    static func accepts(near: (SIMD2<Double>, SIMD2<Double>), far: (SIMD2<Double>, SIMD2<Double>),
                        parallel: Double = 1) -> Bool {
        let count = 4
        let crossing = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: count * count)
        defer { crossing.deallocate() }
        crossing.initialize(repeating: SIMD2(repeating: .nan), count: count * count)
        crossing[2 * count + 0] = near.0
        crossing[2 * count + 1] = near.1
        crossing[3 * count + 0] = far.0
        crossing[3 * count + 1] = far.1
        return DocumentFinder.convergesAsACard((c1: 0, c2: 1, v1: 2, v2: 3, parallel: parallel),
                                               crossing: crossing, activeCount: count)
    }

    /// A steeply turned card: its far side 0.6 of its near one, the two parallel.
    @Test func aForeshortenedCardIsACard() {
        #expect(Self.accepts(near: (SIMD2(100, 400), SIMD2(600, 400)), far: (SIMD2(250, 200), SIMD2(550, 200))))
    }

    /// A wedge: its far side a fifth of its near one (a desk's line across a card's edge).
    @Test func aWedgeIsNoCard() {
        #expect(!Self.accepts(near: (SIMD2(100, 400), SIMD2(600, 400)), far: (SIMD2(500, 200), SIMD2(600, 200))))
    }

    /// Both pairs converging: no card turned about one axis looks so.
    @Test func twoConvergingPairsAreNoCard() {
        #expect(!Self.accepts(near: (SIMD2(100, 400), SIMD2(600, 400)), far: (SIMD2(250, 200), SIMD2(550, 200)),
                              parallel: 0.9))
    }

    /// Fixtures/README.md: a card turned far about its long axis, its short sides converging by 75°. With opposite
    /// sides held to 60°, its outline was never built: NO_DOCUMENT. Now TILTED, on the card.
    @Test func aSteeplyTurnedCardIsFoundTilted() throws {
        try expectRuleDecides("card-turned-steeply-sides-converging-76-camsim-seed100.jpg", primary: .tilted,
                              corners: [(151.43, 86.78), (1164.95, 343.7), (901.43, 541.26), (273.85, 390.97)],
                              within: 0.02, before: .noDocument) { $0.documentFinder.admitsSteeplyConvergingSides = false }
    }
}
