// A side's run on to the frame's border does not count the edges of a striped desk along it (`StripeField`).
import Testing
@testable import FrameAnalysis

@Suite struct StripeFieldTests {
    /// Fixtures/README.md: a card seen whole and square-on on corrugated card whose stripes run along its left and
    /// right sides: the outline of its top and its sides run on down the stripes to the frame's bottom edge won, as a
    /// card the frame cuts (CUT_OFF). Without the stripes' edges those runs do not reach the border, and the card is
    /// found whole.
    @Test func aCardsSidesDoNotRunOnDownAStripedDesk() throws {
        let (analysis, without) = try expectSettingDecides(
            "card-on-corrugated-stripes-along-its-sides-camsim-seed100.jpg", primary: .good, otherwise: .cutOff) {
            $0.documentFinder.discountsStripeFields = false
        }
        #expect(analysis.feedback.map(\.code) == [.good], "\(analysis.feedback)")
        let region = try #require(analysis.region), before = try #require(without.region)
        let bottom = region.corners.map(\.y).max()!, runOn = before.corners.map(\.y).max()!
        #expect(bottom < 0.9 * Double(analysis.height) && runOn >= 0.98 * Double(analysis.height),
                "\(region.corners) \(before.corners)")
    }

    /// Fixtures/README.md: an empty striped desk beside a keypad: an outline of stripe lines closed by the frame's
    /// borders was taken for a card too close (MOVE_AWAY); its sides' runs to the border are the stripes' edges.
    @Test func anEmptyStripedDeskIsNoCard() throws {
        _ = try expectSettingDecides(
            "empty-striped-desk-beside-a-keypad-camsim-small-seed180.jpg", primary: .noDocument,
            otherwise: .moveAway) { $0.documentFinder.discountsStripeFields = false }
    }

    /// The stripe test on synthetic images: an edge pixel inside a field of 6 px stripes is in a stripe field; the
    /// edge between two plain regions is not, nor one with stripes on one side only, nor the edge between a dark
    /// striped region and a light striped one (parallel edges on both sides, but a step in shade across: a card's
    /// edge between its printed face and a striped desk).
    @Test func stripesAreToldFromABoundary() throws {
        let width = 64, height = 64
        func image(_ shade: (Int) -> UInt8) -> GrayImage {
            let image = GrayImage()
            image.resize(width: width, height: height)
            for y in 0..<height { for x in 0..<width { image.base[y * width + x] = shade(x) } }
            return image
        }
        func striped(_ image: GrayImage, at x: Int) -> Bool {
            let gradients = SobelGradients()
            gradients.compute(image)
            let field = StripeField(source: UnsafePointer(image.base), gx: UnsafePointer(gradients.gx.baseAddress!),
                                    gy: UnsafePointer(gradients.gy.baseAddress!),
                                    magnitude: UnsafePointer(gradients.magnitude.baseAddress!), width: width,
                                    height: height, weak: UInt16(gradients.weakThreshold), normal: SIMD2(1, 0))
            return field.contains(SIMD2(Double(x), 32))
        }
        let stripes = image { x in (x / 3) % 2 == 0 ? 60 : 180 }
        let boundary = image { x in x < 32 ? 60 : 180 }
        let stripesOnOneSide = image { x in x < 32 ? 60 : ((x / 3) % 2 == 0 ? 120 : 200) }
        #expect(striped(stripes, at: 30))
        #expect(!striped(boundary, at: 32))
        #expect(!striped(stripesOnOneSide, at: 32))
        let stripesEitherSideOfAStep = image { x in
            let light = (x / 3) % 2 == 0
            return x < 33 ? (light ? 70 : 30) : (light ? 230 : 190)
        }
        #expect(striped(stripesEitherSideOfAStep, at: 20) && striped(stripesEitherSideOfAStep, at: 45))
        #expect(!striped(stripesEitherSideOfAStep, at: 32))
    }
}
