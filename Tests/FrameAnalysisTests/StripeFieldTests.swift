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
            let field = StripeField(image: stripeImage(image, gradients), normal: SIMD2(1, 0))
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

    /// The stripe lane is filled on first use (`StripeLane`): over a line's samples with an edge (lane 1 steps up)
    /// it counts those `StripeField` places in a field of stripes, and leaves the others out.
    @Test func theStripeLaneCountsTheEdgeSamplesInStripes() throws {
        let width = 64, height = 64
        let image = GrayImage()
        image.resize(width: width, height: height)
        // Stripes 3 px wide left of x = 40, plain to its right: the line x = 30 lies in the field, x = 50 does not.
        for y in 0..<height { for x in 0..<width { image.base[y * width + x] = x < 40 ? ((x / 3) % 2 == 0 ? 60 : 180) : 120 } }
        let gradients = SobelGradients()
        gradients.compute(image)
        let filled = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        defer { filled.deallocate() }
        let lane = StripeLane(filled: filled, image: stripeImage(image, gradients))
        let field = StripeField(image: stripeImage(image, gradients), normal: SIMD2(1, 0))
        // A vertical line x = 30 (t runs down it from y = 0): t = y. Lane 1 (edge samples) steps up on even t only.
        let origin = 2, range = (lo: 4, hi: 59)
        let row = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: range.hi + 2 + origin)
        defer { row.deallocate() }
        row.initialize(repeating: SIMD8(repeating: 0), count: range.hi + 2 + origin)
        var edges: Float = 0
        for t in range.lo...range.hi {
            if t % 2 == 0 { edges += 1 }
            row[t + 1 + origin][1] = edges
        }
        let line = DocumentFinder.Line(normal: SIMD2(1, 0), rho: 30)
        lane.fill(row, origin: origin, line: line, range: range)
        let expected = (range.lo...range.hi).filter { $0 % 2 == 0 && field.contains(SIMD2(30, Double($0))) }.count
        #expect(expected >= 20, "the line along the stripes has edges in the field")
        #expect(row[range.hi + 1 + origin][7] == Float(expected) && row[range.lo + origin][7] == 0)
        // Beside the field, on the plain part: no sample is in stripes.
        lane.fill(row, origin: origin, line: DocumentFinder.Line(normal: SIMD2(1, 0), rho: 50), range: range)
        #expect(row[range.hi + 1 + origin][7] == 0)
    }

    /// One analyzer judging frames in turn (no stream: no `previous`) reads each frame's stripes afresh: a stripe
    /// lane filled for one frame's lines is never read for the next frame's.
    @Test func eachFramesStripeLanesAreItsOwn() throws {
        let card = FrameInput.jpeg(try fixtureBytes("card-on-corrugated-stripes-along-its-sides-camsim-seed100.jpg"))
        let desk = FrameInput.jpeg(try fixtureBytes("empty-striped-desk-beside-a-keypad-camsim-small-seed180.jpg"))
        let analyzer = FrameAnalyzer()
        for (input, expected) in [(card, FeedbackCode.good), (desk, .noDocument), (card, .good), (card, .good),
                                  (desk, .noDocument)] {
            let analysis = try analyzer.analyze(input, mode: .document)
            #expect(analysis.primary == expected, "\(analysis.feedback)")
        }
    }

    /// A synthetic image and its gradients as the stripe test reads them.
    private func stripeImage(_ image: GrayImage, _ gradients: SobelGradients) -> StripeField.Image {
        StripeField.Image(source: UnsafePointer(image.base), gx: UnsafePointer(gradients.gx.baseAddress!),
                          gy: UnsafePointer(gradients.gy.baseAddress!),
                          magnitude: UnsafePointer(gradients.magnitude.baseAddress!), width: image.width,
                          height: image.height, weak: UInt16(gradients.weakThreshold))
    }
}
