// The band line search (the fourth-side pass and stream tracking) on lines drawn in a gradient field, and its two
// helpers: the turn from the cross and dot products, and a row's stretch across the band.
import Foundation
import Testing
@testable import FrameAnalysis

@Suite struct BandLineSearchTests {
    /// The series stands in for atan2 per ridge pixel: it must give the same 1° cell over the whole turn it serves.
    @Test func turnFromTheTangentMatchesAtanOverTheVotesTurn() {
        var worst = 0.0
        for step in -3350...3350 {
            let t = Double(step) / 10_000
            worst = max(worst, abs(BandLineSearch.degrees(tangent: t) - atan(t) * 180 / .pi))
        }
        #expect(worst < 1e-7, "largest difference \(worst)°")
    }

    @Test func rowCrossingOfASlantedBand() throws {
        // A parallelogram band from (10, 0)–(30, 0) down to (50, 40)–(70, 40): row 20 crosses it from 30 to 50.
        let band = (SIMD2(10.0, 0), SIMD2(30.0, 0), SIMD2(70.0, 40), SIMD2(50.0, 40))
        let row20 = try #require(BandLineSearch.crossing(row: 20, band: band))
        #expect(abs(row20.0 - 30) < 1e-9 && abs(row20.1 - 50) < 1e-9)
        let top = try #require(BandLineSearch.crossing(row: 0, band: band))
        #expect(top.0 == 10 && top.1 == 30)
        #expect(BandLineSearch.crossing(row: 41, band: band) == nil)
        #expect(BandLineSearch.crossing(row: -0.5, band: band) == nil)
    }

    /// A step edge along a slanted line inside the band is found at its place and direction, whichever side is
    /// lighter; a band that misses it finds nothing of that direction.
    @Test(arguments: [false, true])
    func findsTheSlantedEdgeInItsBand(lighterBelow: Bool) throws {
        let width = 200, height = 120
        let image = GrayImage()
        image.resize(width: width, height: height)
        // The edge: points p with p · n = 60, n = (sin 10°, cos 10°) (a line 10° off horizontal).
        let n = SIMD2(sin(10 * Double.pi / 180), cos(10 * Double.pi / 180))
        for y in 0..<height {
            for x in 0..<width {
                // Anti-aliased as a lens draws it: the pixel's share below the line, over a pixel's width.
                let below = min(1, max(0, (SIMD2(Double(x), Double(y)) * n).sum() - 60 + 0.5))
                let light = lighterBelow ? below : 1 - below
                image.base[y * width + x] = UInt8(60 + 140 * light)
            }
        }
        let gradients = SobelGradients()
        gradients.compute(image)
        let search = BandLineSearch()
        let band = (SIMD2(20.0, 35), SIMD2(180.0, 35), SIMD2(180.0, 75), SIMD2(20.0, 75))
        search.search(gradients, width: width, height: height, band: band, reference: SIMD2(0, 1), count: 2)
        let line = try #require(search.found.first)
        let normal = line.normal.y < 0 ? -line.normal : line.normal
        let rho = line.normal.y < 0 ? -line.rho : line.rho
        #expect(abs(acos(min(1, (normal * n).sum())) * 180 / .pi) <= 1.5, "normal \(normal)")
        #expect(abs(rho - 60) <= 1.5, "rho \(rho)")
        let elsewhere = (SIMD2(20.0, 90), SIMD2(180.0, 90), SIMD2(180.0, 115), SIMD2(20.0, 115))
        search.search(gradients, width: width, height: height, band: elsewhere, reference: SIMD2(0, 1), count: 2)
        #expect(search.found.isEmpty, "\(search.found)")
    }
}
