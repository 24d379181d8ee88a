// The card outline's edge-spread width (`OutlineSmear`), and the BLURRY it adds to a frame whose print reads sharp.
import Testing
@testable import FrameAnalysis

@Suite struct OutlineSmearTests {
    static let corners: QuadCorners = [SIMD2(150, 100), SIMD2(490, 100), SIMD2(490, 314), SIMD2(150, 314)]

    /// A light card (200) on a darker, noisy background (60), edges one pixel wide; `shade` paints over it.
    static func card(width: Int = 640, height: Int = 400,
                     shade: (Int, Int, inout Double) -> Void = { _, _, _ in }) -> GrayImage {
        var random = SyntheticFrame.Random(state: 11)
        let image = GrayImage()
        image.resize(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var v = (150..<490).contains(x) && (100..<314).contains(y) ? 200.0 : 60.0
                shade(x, y, &v)
                v += Double(random.next() % 9) - 4
                image.pixels[y * width + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return image
    }

    /// `image` averaged over `length` pixels along x: a shake sideways during the exposure.
    static func smearedSideways(_ image: GrayImage, length: Int) -> GrayImage {
        let out = GrayImage()
        out.resize(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = 0
                for k in 0..<length {
                    sum += Int(image.pixels[y * image.width + min(image.width - 1, max(0, x + k - length / 2))])
                }
                out.pixels[y * image.width + x] = UInt8(sum / length)
            }
        }
        return out
    }

    @Test func aSharpOutlineReadsAboutAPixel() throws {
        let smear = try #require(OutlineSmear().measure(Self.card(), corners: Self.corners))
        #expect(smear <= 2, "\(smear)")
    }

    /// Motion smears the two sides across it as wide as the shake and leaves the two along it crisp: the wider pair
    /// tells.
    @Test func aSidewaysShakeWidensTheSidesAcrossIt() throws {
        let measure = OutlineSmear()
        let smear = try #require(measure.measure(Self.smearedSideways(Self.card(), length: 12), corners: Self.corners))
        #expect(smear >= 8 && smear <= 14, "\(smear)")
        let image = Self.smearedSideways(Self.card(), length: 12), c = Self.corners
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        let top = try #require(measure.sideWidth(image, from: c[0], to: c[1], centre: centre))
        let right = try #require(measure.sideWidth(image, from: c[1], to: c[2], centre: centre))
        #expect(top <= 2 && right >= 8, "top \(top), right \(right)")
    }

    /// A header band along the top starts with its own step a flat run inside the card's: two steps apart, not one
    /// ramp.
    @Test func aPrintedBandAlongASideIsNotARamp() throws {
        let banded = Self.card { x, y, v in if (150..<490).contains(x) && (100..<112).contains(y) { v = 120 } }
        let smear = try #require(OutlineSmear().measure(banded, corners: Self.corners))
        #expect(smear <= 2, "\(smear)")
    }

    /// A soft shadow outside one side ramps into its edge; the side opposite stays crisp, and a smear always widens
    /// both.
    @Test func aShadowAlongOneSideIsNotASmear() throws {
        let shadowed = Self.card { x, y, v in
            if (150..<490).contains(x) && (314..<326).contains(y) { v = 200 - Double(y - 313) * 12 }
        }
        let measure = OutlineSmear(), c = Self.corners
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        let bottom = try #require(measure.sideWidth(shadowed, from: c[2], to: c[3], centre: centre))
        #expect(bottom >= 6, "\(bottom)")
        let smear = try #require(measure.measure(shadowed, corners: c))
        #expect(smear <= 2, "\(smear)")
    }

    /// A sideways shake with the background beyond the right side at the card's shade: that side has no step to
    /// read, and the left side's ramp counts alone. (Paired only, the crisp top and bottom would answer.)
    @Test func aSmearedSideWhoseOppositeSideCannotBeReadCountsAlone() throws {
        let lone = Self.smearedSideways(Self.card { x, _, v in if x >= 490 { v = 200 } }, length: 12)
        let measure = OutlineSmear(), c = Self.corners
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        #expect(measure.sideWidth(lone, from: c[1], to: c[2], centre: centre) == nil)
        let smear = try #require(measure.measure(lone, corners: c))
        #expect(smear >= 8 && smear <= 14, "\(smear)")
        measure.takesLoneSides = false
        let paired = try #require(measure.measure(lone, corners: c))
        #expect(paired <= 2, "\(paired)")
    }

    /// A reflection's halo is a ramp of its own: profiles that reach the clipped level are left out, and a side
    /// left with too few has no width.
    @Test func profilesThroughAClippedReflectionAreLeftOut() throws {
        let glared = Self.card { x, _, v in if x >= 470 && x < 520 { v = 255 } }
        let measure = OutlineSmear(), c = Self.corners
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        #expect(measure.sideWidth(glared, from: c[1], to: c[2], centre: centre) == nil)
    }

    @Test func sidesOutsideTheImageGiveNoWidth() {
        let outside: QuadCorners = [SIMD2(-200, -100), SIMD2(900, -100), SIMD2(900, 600), SIMD2(-200, 600)]
        #expect(OutlineSmear().measure(Self.card(), corners: outside) == nil)
    }

    /// The sorting network's medians are each offset's `rows / 2`-th smallest value, for every count of rows a side
    /// can have read (its lacking rows padded), ties and the last partial group of offsets included.
    @Test func theMediansAreEachOffsetsMiddleValue() {
        let stride = OutlineSmear.paddedOffsets, offsets = OutlineSmear.offsets
        let profiles = UnsafeMutableBufferPointer<Float>.allocate(capacity: OutlineSmear.rowsPerSide * stride)
        let lanes = UnsafeMutableBufferPointer<SIMD16<Float>>.allocate(capacity: OutlineSmear.rowsPerSide)
        let median = UnsafeMutableBufferPointer<Float>.allocate(capacity: offsets)
        defer { profiles.deallocate(); lanes.deallocate(); median.deallocate() }
        profiles.initialize(repeating: .nan)
        for rows in OutlineSmear.minRows...OutlineSmear.rowsPerSide {
            for r in 0..<rows {
                // Few distinct levels, so that ties are common, as on a flat background; a different order of them
                // down each offset's column (deterministic, so a failure repeats).
                for k in 0..<offsets {
                    profiles[r * stride + k] = Float((r * 37 + k * 11 + (r * k + rows) % 7) % 12 * 20)
                }
            }
            OutlineSmear.medians(of: profiles.baseAddress!, stride: stride, rows: rows, offsets: offsets,
                                 lanes: lanes.baseAddress!, into: median.baseAddress!)
            for k in 0..<offsets {
                let sorted = (0..<rows).map { profiles[$0 * stride + k] }.sorted()
                #expect(median[k] == sorted[rows / 2], "rows \(rows), offset \(k)")
            }
        }
    }

    /// Fixtures/README.md: a card shaken across its long sides (~9 working px, the motion dwelling at one end), its
    /// print's crisp strokes along the shake outweighing the smeared ones: sharpness 0.55, GOOD. Its long sides' edge
    /// ramps are several pixels wide: BLURRY, with the smear as its value. (Its steps read 6 px either side keep 0.575
    /// of their rise in the steepest two pixels, so the wide-reach check holds it back too: both are off to show it
    /// GOOD without them.)
    @Test func aShakenCardWhosePrintReadsSharpIsBlurry() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-shaken-print-reads-sharp-camsim-seed27.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.blurry], "\(analysis.feedback)")
        let sharpness = try #require(analysis.metrics["sharpness"])
        #expect(sharpness >= AnalysisThresholds.default.minDocumentSharpness, "\(sharpness)")
        let smear = try #require(analysis.metrics["outlineSmear"])
        #expect(analysis.feedback.first?.value == smear)
        #expect(analysis.feedback.first?.threshold == AnalysisThresholds.default.maxOutlineSmear)
        let corners: [(Double, Double)] = [(512.48, 386.31), (1425.34, 129.56), (1587.89, 717.44), (663.24, 955.34)]
        #expect(cornerErrorShare(analysis, corners) < 0.02, "\(String(describing: analysis.region))")

        var off = AnalysisThresholds.default
        off.maxOutlineSmear = 0
        off.minWideStepShare = 0
        let without = try FrameAnalyzer(thresholds: off).analyze(input, mode: .document)
        #expect(without.primary == .good, "\(without.feedback)")
        #expect(without.metrics["outlineSmear"] == nil)
    }

    /// Fixtures/README.md: a card shaken diagonally (~13 working px), the hand over its right side, bright MRZ text
    /// just inside its bottom edge. The steepest slope beside the bottom side is the text's, of the other sign; the
    /// outline's step is read at the sign from the background's level to the card's edge, and both long sides are
    /// ramps: BLURRY (sharpness 0.59, GOOD, without it and the wide-reach check, which reads 0.579 and holds it back
    /// too).
    @Test func aShakenCardIsJudgedOnItsOutlinesStepNotThePrintInsideIt() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-shaken-diagonally-hand-over-side-camsim-seed10.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.blurry], "\(analysis.feedback)")
        let smear = try #require(analysis.metrics["outlineSmear"])
        #expect(smear > 1.5 * AnalysisThresholds.default.maxOutlineSmear, "\(smear)")

        var off = AnalysisThresholds.default
        off.maxOutlineSmear = 0
        off.minWideStepShare = 0
        #expect(try FrameAnalyzer(thresholds: off).analyze(input, mode: .document).primary == .good)
    }

    /// Fixtures/README.md: a card shaken diagonally (~19 working px), held at its bottom, its bottom side on a
    /// background of its own luma (no step to read there). Its top side's ramp is 11.5 px wide; paired only with the
    /// bottom, it did not count, and the other pair's narrower side read 2 px: GOOD, a shaken card captured. With the
    /// top side counted alone: BLURRY, though its print reads sharp (0.60). (Its found bottom-left corner sits 3 % of
    /// the diagonal from the labelled one: the smear blurs the corner's place.)
    @Test func aShakenCardWithOneSideAtItsBackgroundsShadeIsBlurry() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-shaken-one-side-at-background-shade-camsim-seed34.jpg"))
        let corners: [(Double, Double)] = [(470.03, 149.82), (1648.74, 228.29), (1540.63, 918.89), (469.84, 850.67)]
        let analysis = try analyzeExpectingCard(input, primary: .blurry, corners: corners, within: 0.04)
        let smear = try #require(analysis.metrics["outlineSmear"])
        #expect(smear > 2 * AnalysisThresholds.default.maxOutlineSmear, "\(smear)")
        let sharpness = try #require(analysis.metrics["sharpness"])
        #expect(sharpness >= AnalysisThresholds.default.minDocumentSharpness, "\(sharpness)")

        #expect(try analyzeDocument(input) { $0.outlineSmear.takesLoneSides = false }.primary == .good)
    }

    /// The bar is a share of the working image, but never under the camera's own edge spread at the scale the frame
    /// was decoded to: a frame decoded at half its size keeps the share bar, one read at its own size a floor of
    /// `cameraEdgeSpread` of its pixels.
    @Test func theBarIsNeverUnderTheCamerasOwnEdgeSpread() {
        let share = AnalysisThresholds.default.maxOutlineSmear
        #expect(OutlineSmear.bar(maxShare: share, inputLongSide: 1280) == share)
        #expect(OutlineSmear.bar(maxShare: share, inputLongSide: 1920) == share)
        let atOwnSize = OutlineSmear.bar(maxShare: share, inputLongSide: 480)
        #expect(abs(atOwnSize * 480 - OutlineSmear.cameraEdgeSpread) < 1e-9, "\(atOwnSize)")
        #expect(OutlineSmear.bar(maxShare: share, inputLongSide: 640) * 640
                == OutlineSmear.cameraEdgeSpread)
    }

    /// Fixtures/README.md: a sharp card in a 360 × 480 frame, read at its own size. Its outline's ramp is 3.5 px, the
    /// camera's own spread, over the share bar there (3.4 px): it was BLURRY. Judged against the camera's spread, it is
    /// GOOD, with its outline where the card is.
    @Test func aSharpCardInASmallFrameReadAtItsOwnSizeIsGood() throws {
        let input = FrameInput.jpeg(try fixtureBytes("sharp-card-outline-at-its-own-size-camsim-small-seed156.jpg"))
        let corners: [(Double, Double)] = [(73.86, 145.46), (336.35, 132.89), (328.41, 295.07), (87.67, 299.27)]
        let analysis = try analyzeExpectingCard(input, primary: .good, corners: corners, within: 0.02)
        let smear = try #require(analysis.metrics["outlineSmear"])
        #expect(smear > AnalysisThresholds.default.maxOutlineSmear, "\(smear)")
        #expect(smear * 480 <= OutlineSmear.cameraEdgeSpread, "\(smear)")
    }

    @Test func theThresholdIsReadFromJSONAndRangeChecked() throws {
        let t = try AnalysisThresholds(json: Array(#"{"maxOutlineSmear": 0.01}"#.utf8))
        #expect(t.maxOutlineSmear == 0.01)
        #expect(throws: AnalysisThresholdsError.self) {
            try AnalysisThresholds(json: Array(#"{"maxOutlineSmear": -1}"#.utf8))
        }
    }
}
