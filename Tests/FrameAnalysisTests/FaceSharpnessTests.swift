// Selfie sharpness (`FaceSharpness`): a clipped background's edge beside a shaken face is not evidence of focus.
import Testing
@testable import FrameAnalysis

@Suite struct FaceSharpnessTests {
    /// A 96 × 96 face crop: an oval of soft ramp texture (a shaken face's detail) in a background clipped to 255,
    /// behind a crisp edge of every orientation. Motion or defocus blur leaves such an edge crisp wherever the light beyond it is
    /// far above the sensor's clip level (a window behind the user): the blur spreads over light that clipping then
    /// flattens. Counted, that one edge makes the face read sharp; left out, the face reads as its own detail does.
    static func shakenFaceBeforeAWindow() -> GrayImage {
        let image = GrayImage()
        image.resize(width: 96, height: 96)
        for y in 0..<96 {
            for x in 0..<96 {
                // Stripes 24 px apart, rising and falling over 12 px: no edge steeper than ~8 levels per pixel.
                let phase = Double((x + y / 3) % 24) / 24
                let ramp = phase < 0.5 ? phase * 2 : 2 - phase * 2
                let dx = Double(x - 48) / 40, dy = Double(y - 48) / 44
                image.base[y * 96 + x] = dx * dx + dy * dy > 1 ? 255 : UInt8(80 + 90 * ramp)
            }
        }
        return image
    }

    @Test func aClippedBackgroundsEdgeDoesNotMakeAShakenFaceSharp() {
        let image = Self.shakenFaceBeforeAWindow()
        let spans = RegionSpans()
        spans.set(for: image, quad: nil)
        let counted = FrameMeasurements.sharpness(image, spans: spans).overall
        let leftOut = FrameMeasurements.sharpness(image, spans: spans, clippedLuma: FaceSharpness.clippedLuma).overall
        #expect(counted >= AnalysisThresholds.default.minSharpness, "the fixture's clipped edge reads sharp: \(counted)")
        #expect(leftOut < AnalysisThresholds.default.minSharpness, "\(leftOut)")
    }

    /// Fixtures/README.md: a face shaken over ~9 % of its width before an over-exposed window (camsim selfie seed 12,
    /// generated after the rule): its hair's outline against the clipped window stays crisp. BLURRY, not GOOD.
    @Test func aShakenFaceBeforeAWindowIsBlurry() throws {
        let analysis = try FrameAnalyzer().analyze(.jpeg(try fixtureBytes("shaken-face-before-window-camsim-seed12.jpg")),
                                                   mode: .selfie)
        #expect(analysis.faces.count == 1)
        #expect(analysis.primary == .blurry, "\(analysis.feedback) \(analysis.metrics)")
    }
}
