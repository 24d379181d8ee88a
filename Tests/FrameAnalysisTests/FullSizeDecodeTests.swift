// A frame no larger than the working size (a VGA stream's) is decoded at full size, by libjpeg-turbo's 8×8 IDCT; a
// larger one by a scaled IDCT whatever the method. The fast 8×8 IDCT read clipped highlights a few levels darker, under
// the glare luma (250): a glare patch on such a frame was no glare (`JPEGGrayDecoder`'s flags, docs/capture.md,
// "Pipeline").
import Testing
@testable import FrameAnalysis

@Suite struct FullSizeDecodeTests {
    /// Fixtures/README.md: a card under a glare patch in a 480×640 frame (camsim measures 7.5 % of the card at 250 or
    /// more), told GOOD with the fast IDCT.
    static let glareOnVGA = "glare-on-a-card-in-a-vga-frame-camsim-portrait-seed153.jpg"

    @Test func clippedHighlightsDecodeClippedAtFullSize() throws {
        let image = GrayImage()
        try JPEGGrayDecoder().decode(try fixtureBytes(Self.glareOnVGA), into: image, longSide: 640,
                                     maxPixels: 1 << 24)
        #expect(image.width == 480 && image.height == 640)
        let clipped = UnsafeBufferPointer(start: image.base, count: image.width * image.height).count { $0 >= 250 }
        // The accurate IDCT (and OpenCV's decode) give 28,908; the fast one gave 1,444.
        #expect(clipped > 25_000, "\(clipped)")
    }

    @Test func glareOnACardInAVGAFrameIsGlare() throws {
        let analysis = try analyzeExpectingCard(
            .jpeg(try fixtureBytes(Self.glareOnVGA)), primary: .glare,
            corners: [(118.42, 261.44), (414.49, 211.56), (451.36, 401.67), (145.99, 449.97)], within: 0.02)
        #expect((analysis.metrics["glareFraction"] ?? 0) > 0.03)
    }
}
