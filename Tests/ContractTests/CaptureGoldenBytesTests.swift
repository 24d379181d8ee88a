import Foundation
import KYCMessages
import Testing

/// proto/capture.proto: protoc's bytes (scripts/generate-fixtures) decode to the expected values and re-encode to
/// the same bytes; malformed bytes are an error, never a crash.
@Suite("Capture golden bytes from protoc")
struct CaptureGoldenBytesTests {
    @Test func analyzeFrameRequestWithARawFrameAndTrackerState() throws {
        let bytes = try GoldenBytesTests.fixture("capture_analyze_frame_request")
        let request = try AnalyzeFrameRequest(serialized: bytes)
        #expect(request.frame == [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0])
        #expect(request.format == .nv21)
        #expect(request.width == 4 && request.height == 2 && request.stride == 4)
        #expect(request.mode == .document)
        #expect(request.streamID == "str_0123456789abcdef")
        #expect(String(decoding: request.trackerState, as: UTF8.self).hasPrefix("{\"mode\":\"document\""))
        #expect(request.rotation == 270 && request.videoRange)
        #expect(request.serialized() == bytes)
    }

    @Test func analyzeFrameReplyWithRegionMetricsAndFeedback() throws {
        let bytes = try GoldenBytesTests.fixture("capture_analyze_frame_reply")
        let reply = try AnalyzeFrameReply(serialized: bytes)
        #expect(reply.width == 1280 && reply.height == 720)
        #expect(reply.region == CaptureDocumentRegion(corners: [
            CapturePoint(x: 300.5, y: 180.25), CapturePoint(x: 980, y: 190), CapturePoint(x: 975.75, y: 600),
            CapturePoint(x: 310, y: 590.5),
        ], confidence: 0.93))
        #expect(reply.faces.isEmpty)
        #expect(reply.metrics == [CaptureMetric(name: "brightness", value: 171.5), CaptureMetric(name: "fill", value: 0.3),
                                  CaptureMetric(name: "glareFraction", value: 0.08)])
        // A measured finding carries value and threshold; an unmeasured one carries neither (absent, not zero).
        #expect(reply.feedback == [CaptureFeedback(code: "GLARE", value: 0.08, threshold: 0.03),
                                   CaptureFeedback(code: "HOLD_STEADY")])
        #expect(!reply.capture)
        #expect(reply.trackerState == Array("{\"version\":1}".utf8))
        #expect(reply.streamID == "str_0123456789abcdef")
        #expect(reply.instance == "capture-1:4242")
        #expect(reply.serialized() == bytes)
    }

    @Test func analyzeFrameReplyForASelfieHasFacesAndNoRegion() throws {
        let bytes = try GoldenBytesTests.fixture("capture_analyze_frame_reply_selfie")
        let reply = try AnalyzeFrameReply(serialized: bytes)
        #expect(reply.region == nil)
        #expect(reply.faces == [CaptureFaceRegion(x: 200, y: 380, width: 320, height: 330, eyes: 2)])
        #expect(reply.feedback == [CaptureFeedback(code: "GOOD")])
        #expect(reply.capture)
        #expect(reply.serialized() == bytes)
    }

    @Test func unknownEnumValuesDecodeAsUnspecified() throws {
        // Field 2 (format) = 99 and field 6 (mode) = 42: values a newer client might send.
        let request = try AnalyzeFrameRequest(serialized: [0x10, 99, 0x30 | 0x00, 42])
        #expect(request.format == .unspecified)
        #expect(request.mode == .unspecified)
    }

    @Test(arguments: [[UInt8]([0x0A, 0xFF]), [0x0A, 0x05, 0x01], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF]])
    func malformedBytesAreAnError(bytes: [UInt8]) {
        #expect(throws: MessageDecodingError.self) { try AnalyzeFrameRequest(serialized: bytes) }
        #expect(throws: MessageDecodingError.self) { try AnalyzeFrameReply(serialized: bytes) }
    }
}
