// Video-range raw frames (luma 16…235: iOS's default "420v" camera buffers) are expanded to full range before they
// are judged, so that they meet the same thresholds as a JPEG of the same scene (`LumaRange`, docs/capture.md).
import Foundation
import Testing
@testable import FrameAnalysis

@Suite("Video-range raw frames")
struct VideoRangeFrameTests {
    struct Outcome: Sendable {
        var frames = 0
        /// Frames whose first feedback differs from the full-range frame's, sent with `lumaRange: .video`.
        var changedExpanded: [String] = []
        /// The same, read as if full range (what the engine did before `LumaRange`).
        var changedAsIs: [String] = []
        var glareFullRange = 0, glareExpanded = 0, glareAsIs = 0
    }

    /// Every 720p framegen document frame, as full-range gray8 and as the video-range gray8 a "420v" buffer of the
    /// same scene holds (16 + y × 219 / 255, rounded).
    static func compare() throws -> Outcome {
        let set = try GeneratedFrames.accuracySet.get()
        let analyzer = FrameAnalyzer()
        var outcome = Outcome()
        for label in set.labels where label.mode == "document" && label.sequence == nil && label.width == 1280 {
            let full = try RotatedFrames.grayPixels(of: try set.bytes(label))
            let video = full.pixels.map { UInt8((16 + Double($0) * 219 / 255).rounded()) }
            func analysis(_ pixels: [UInt8], _ range: LumaRange) throws -> FrameAnalysis {
                try analyzer.analyze(.raw(bytes: pixels, width: full.width, height: full.height, stride: full.width,
                                          format: .gray8, lumaRange: range), mode: .document)
            }
            let reference = try analysis(full.pixels, .full)
            let expanded = try analysis(video, .video)
            let asIs = try analysis(video, .full)
            outcome.frames += 1
            if expanded.primary != reference.primary { outcome.changedExpanded.append(label.file) }
            if asIs.primary != reference.primary { outcome.changedAsIs.append(label.file) }
            outcome.glareFullRange += reference.primary == .glare ? 1 : 0
            outcome.glareExpanded += expanded.primary == .glare ? 1 : 0
            outcome.glareAsIs += asIs.primary == .glare ? 1 : 0
        }
        return outcome
    }

    @Test func aVideoRangeFrameIsJudgedAsTheFullRangeFrameOfTheSameScene() async throws {
        let outcome = try await onOwnThread { try Self.compare() }
        print("video range: \(outcome.frames) frames; first feedback changed expanded \(outcome.changedExpanded), "
              + "read as full range \(outcome.changedAsIs.count); GLARE full \(outcome.glareFullRange), expanded "
              + "\(outcome.glareExpanded), as is \(outcome.glareAsIs)")
        #expect(outcome.frames >= 50)
        // 220 codes stretched over 256 lose a little precision: at most one frame in twenty-five may move.
        #expect(outcome.changedExpanded.count * 25 <= outcome.frames, "\(outcome.changedExpanded)")
        #expect(outcome.glareFullRange >= 5)
        #expect(outcome.glareExpanded == outcome.glareFullRange)
        // Read as it is, the glare never reaches the saturation luma: the reason for the expansion.
        #expect(outcome.glareAsIs < outcome.glareFullRange / 2)
    }

    @Test func videoRangeCodesMapOntoTheFullRange() {
        let table = LumaRange.fullRangeOfVideoLuma
        #expect(table[16] == 0 && table[235] == 255)
        #expect(table[0] == 0 && table[15] == 0 && table[240] == 255 && table[255] == 255)
        #expect(table[126] == 128)   // (126 − 16) × 255 / 219 = 128.08
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
