// Shared pieces of the tests that call the quad search's choices directly (`DocumentFinder.RankedQuad` lists).
@testable import FrameAnalysis

/// A 200 × 100 image printed on its left half (scattered dark specks on white: print-like, not repeating) and bare on
/// its right half, its gradients computed into `finder.coarseGradients` (which `interiorTexture` reads); the specks
/// drawn from `random`.
func imagePrintedOnTheLeft(for finder: DocumentFinder, random: inout SyntheticFrame.Random) -> GrayImage {
    let image = GrayImage()
    image.resize(width: 200, height: 100)
    for y in 0..<100 {
        for x in 0..<200 { image.base[y * 200 + x] = x < 100 && random.next() % 4 == 0 ? 30 : 200 }
    }
    finder.coarseGradients.compute(image)
    return image
}

/// A ranked quad with corners `c` (clockwise from top-left), confidence and score `score`, its sides on lines `sides`.
func rankedQuad(_ c: [(Double, Double)], score: Double, sides: SIMD4<Int> = SIMD4(0, 0, 0, 0))
    -> DocumentFinder.RankedQuad {
    ((SIMD2(c[0].0, c[0].1), SIMD2(c[1].0, c[1].1), SIMD2(c[2].0, c[2].1), SIMD2(c[3].0, c[3].1)), score, score, sides)
}
