import CaptureKit
import FrameAnalysis
import Foundation
import KYCCore
import KYCMessages
import Messaging
import Testing
import TestSupport

/// capture.AnalyzeFrame without sockets: validation, engine errors as INVALID_ARGUMENT on `frame`, and auto-capture
/// with the tracker state travelling in the request and reply (also across two handler instances, as across two
/// CaptureService processes).
@Suite("CaptureHandlers")
struct CaptureHandlersTests {
    /// One key for every handler here, as every process of a stack shares one (TrackerStateSealTests covers keys).
    static let keys = TrackerStateKeys.random()

    static func envelope(_ request: AnalyzeFrameRequest, id: String = "req-1") -> RequestEnvelope {
        var envelope = RequestEnvelope()
        envelope.requestID = id
        envelope.tenant = "acme"
        envelope.method = CaptureHandlers.analyzeFrameMethod
        envelope.payload = request.serialized()
        return envelope
    }

    static func jpegRequest(_ bytes: [UInt8], stream: String = "stream-1", state: [UInt8] = [],
                            mode: CaptureMode = .document) -> AnalyzeFrameRequest {
        AnalyzeFrameRequest(frame: bytes, format: .jpeg, mode: mode, streamID: stream, trackerState: state)
    }

    /// The ServiceError `body` threw (nil when it succeeded or threw something else).
    static func invalid(_ body: () throws -> [UInt8]) -> ServiceError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? ServiceError
        }
    }

    static func frames(_ sequence: String) throws -> (GeneratedFrames, [GeneratedFrames.Label]) {
        let set = try GeneratedFrames.accuracySet.get()
        return (set, set.labels.filter { $0.sequence == sequence }.sorted { $0.file < $1.file })
    }

    @Test func stillGoodDocumentIsCapturedAfterTheConfiguredStillFrames() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1, instance: "test:1")
        let (set, frames) = try Self.frames("still")
        var state: [UInt8] = []
        var decisions: [Bool] = []
        for (index, frame) in frames.prefix(AnalysisThresholds.default.stillFrames).enumerated() {
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(
                Self.envelope(Self.jpegRequest(try set.bytes(frame), state: state))))
            #expect(reply.feedback.first?.code == "GOOD", "\(frame.file): \(reply.feedback.map(\.code))")
            // From the second frame on, the card is found around the corners the tracker state carries, except on
            // the frame that may be captured: that one is searched whole.
            let mayCapture = index == AnalysisThresholds.default.stillFrames - 1
            #expect(reply.metrics.contains { $0.name == "tracked" && $0.value == 1 } == (index > 0 && !mayCapture),
                    "\(frame.file)")
            #expect(reply.region?.corners.count == 4)
            #expect(reply.streamID == "stream-1")
            #expect(reply.instance == "test:1")
            #expect(reply.width == Int32(frame.width) && reply.height == Int32(frame.height))
            #expect(reply.metrics.map(\.name) == reply.metrics.map(\.name).sorted())
            #expect(!reply.trackerState.isEmpty)
            decisions.append(reply.capture)
            state = reply.trackerState
        }
        let expected = Array(repeating: false, count: AnalysisThresholds.default.stillFrames - 1) + [true]
        #expect(decisions == expected)
    }

    @Test func withoutTheTrackerStateEveryFrameStartsANewRun() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let (set, frames) = try Self.frames("still")
        for frame in frames {
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(
                Self.envelope(Self.jpegRequest(try set.bytes(frame)))))
            #expect(!reply.capture, "a stateless frame must never be captured (stillFrames > 1)")
        }
    }

    @Test func movingDocumentIsNeverCapturedAndIsToldToHoldSteady() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let (set, frames) = try Self.frames("moving")
        var state: [UInt8] = []
        var codes: [String] = []
        for frame in frames {
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(
                Self.envelope(Self.jpegRequest(try set.bytes(frame), state: state))))
            #expect(!reply.capture)
            codes.append(reply.feedback.first?.code ?? "")
            state = reply.trackerState
        }
        // The first frame has nothing to compare with; every later GOOD frame moved.
        #expect(codes.dropFirst().contains("HOLD_STEADY"), "\(codes)")
        #expect(!codes.dropFirst().contains("GOOD"), "\(codes)")
    }

    @Test func trackerStateCarriesAStreamAcrossTwoInstances() throws {
        let first = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1, instance: "host:1")
        let second = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1, instance: "host:2")
        let (set, frames) = try Self.frames("still")
        var state: [UInt8] = []
        var captured: Int?
        for (index, frame) in frames.enumerated() {
            let handlers = index % 2 == 0 ? first : second
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(
                Self.envelope(Self.jpegRequest(try set.bytes(frame), state: state))))
            #expect(reply.instance == (index % 2 == 0 ? "host:1" : "host:2"))
            if reply.capture && captured == nil { captured = index }
            state = reply.trackerState
        }
        #expect(captured == AnalysisThresholds.default.stillFrames - 1)
    }

    @Test func trackerStateOfAnotherStreamOrGarbageIsRefused() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let (set, frames) = try Self.frames("still")
        let bytes = try set.bytes(frames[0])
        let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(
            Self.envelope(Self.jpegRequest(bytes, stream: "a"))))
        for (state, stream, mode) in [(reply.trackerState, "b", CaptureMode.document),
                                      (reply.trackerState, "a", .selfie),
                                      (Array("not json".utf8), "a", .document),
                                      ([UInt8](repeating: 0x7b, count: 5000), "a", .document)] {
            let error = Self.invalid {
                try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(bytes, stream: stream, state: state,
                                                                         mode: mode)))
            }
            #expect(error?.status == .invalidArgument)
            #expect(error?.violations.map(\.field) == ["tracker_state"])
        }
    }

    @Test(arguments: [
        ([UInt8](), "empty_input"),
        ([0x00, 0x01, 0x02, 0x03], "corrupt_image"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10], "corrupt_image"),
    ])
    func unreadableJPEGIsInvalidArgumentOnFrame(bytes: [UInt8], code: String) {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let error = Self.invalid { try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(bytes))) }
        #expect(error?.status == .invalidArgument)
        #expect(error?.violations.map(\.field) == ["frame"])
        #expect(error?.code == code)
        #expect(error?.violations.first?.code == code)
    }

    @Test func truncatedJPEGIsCorruptImage() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let (set, frames) = try Self.frames("still")
        let bytes = try set.bytes(frames[0])
        let error = Self.invalid {
            try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(Array(bytes.prefix(bytes.count / 2)))))
        }
        #expect(error?.violations.first?.field == "frame")
        #expect(error?.code == "corrupt_image")
        // The worker's analyzer (one thread, so the same one) still reads the next sound frame: a damaged frame once
        // left its TurboJPEG handle broken for every later frame (BadInputTests.aDamagedFrameDoesNotSpoilTheNextSoundOne).
        for cut in [300, bytes.count / 3] {
            _ = Self.invalid { try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(Array(bytes.prefix(cut))))) }
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(bytes))))
            #expect(reply.feedback.first?.code == "GOOD")
        }
        #expect(handlers.analyzerCount == 1)
    }

    @Test func frameLargerThanTheConfiguredMaximumIsRefused() throws {
        var configuration = CaptureServiceConfiguration()
        configuration.maxPixels = 640 * 480
        let handlers = CaptureHandlers(configuration: configuration, stateKeys: Self.keys, workerThreads: 1)
        let (set, frames) = try Self.frames("still")
        let error = Self.invalid {
            try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(try! set.bytes(frames[0]))))
        }
        #expect(error?.code == "too_many_pixels")
        #expect(error?.violations.map(\.field) == ["frame"])
    }

    @Test func rawFrameOfTheWrongSizeIsRefused() {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let request = AnalyzeFrameRequest(frame: [UInt8](repeating: 128, count: 100), format: .nv12, width: 640,
                                          height: 480, mode: .document, streamID: "s")
        let error = Self.invalid { try handlers.analyzeFrame(Self.envelope(request)) }
        #expect(error?.code == "wrong_raw_size")
        #expect(error?.violations.map(\.field) == ["frame"])
    }

    @Test func rawGrayFrameIsAnalysed() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let (width, height, stride) = (640, 360, 704)
        var pixels = [UInt8](repeating: 60, count: stride * height)
        for y in 90..<270 { for x in 180..<460 { pixels[y * stride + x] = 210 } }
        let request = AnalyzeFrameRequest(frame: pixels, format: .gray8, width: Int32(width), height: Int32(height),
                                          stride: Int32(stride), mode: .document, streamID: "raw")
        let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(Self.envelope(request)))
        #expect(reply.width == 640 && reply.height == 360)
        #expect(!reply.feedback.isEmpty)
    }

    /// An Android front camera's NV21 frame of a phone held upright arrives a quarter turn from upright
    /// (`rotationDegrees` 270): with the rotation the face is found and the reply's size and face are the upright
    /// frame's; without it the face lies on its side and none is found.
    @Test func sidewaysRawSelfieIsAnalysedUprightWithItsRotation() throws {
        let (set, labels) = (try GeneratedFrames.accuracySet.get(),
                             try GeneratedFrames.accuracySet.get().labels)
        let label = try #require(labels.first { $0.file == "selfie_good_0000_720p.jpg" })
        let upright = try RotatedFrames.grayPixels(of: try set.bytes(label))
        // Stored a quarter turn clockwise of upright, so 270° more (clockwise) stands it up; NV21's chroma follows.
        let stored = RotatedFrames.turnedClockwise(upright.pixels, width: upright.width, height: upright.height)
        let nv21 = stored + [UInt8](repeating: 128, count: upright.width * ((upright.height + 1) / 2))
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        func request(rotation: Int32) -> AnalyzeFrameRequest {
            AnalyzeFrameRequest(frame: nv21, format: .nv21, width: Int32(upright.height), height: Int32(upright.width),
                                mode: .selfie, streamID: "selfie", rotation: rotation)
        }
        let turned = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(Self.envelope(request(rotation: 270))))
        #expect(turned.feedback.first?.code == "GOOD", "\(turned.feedback)")
        #expect(turned.width == Int32(upright.width) && turned.height == Int32(upright.height))
        let face = try #require(turned.faces.first)
        let truth = try #require(label.faces.first)   // x, y, width, height in the upright frame
        #expect(abs(face.x + face.width / 2 - (truth[0] + truth[2] / 2)) < 0.05 * Double(upright.width), "\(face)")
        let asStored = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(Self.envelope(request(rotation: 0))))
        #expect(asStored.feedback.first?.code == "NO_FACE", "\(asStored.feedback)")
    }

    @Test func aRotationThatIsNotAQuarterTurnIsRefused() {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        for degrees: Int32 in [45, -90, 360] {
            let request = AnalyzeFrameRequest(frame: [UInt8](repeating: 128, count: 64 * 64), format: .gray8,
                                              width: 64, height: 64, mode: .document, streamID: "s",
                                              rotation: degrees)
            let error = Self.invalid { try handlers.analyzeFrame(Self.envelope(request)) }
            #expect(error?.status == .invalidArgument)
            #expect(error?.violations.map(\.field) == ["rotation"])
            #expect(error?.code == "invalid_value")
        }
    }

    /// iOS's default camera buffers are video range: a saturated glare patch is luma 235 there. Sent with
    /// `video_range` it is expanded and counts as saturated (the brightness metric says so); `video_range` on a JPEG,
    /// whose luma is full range by definition, is a client error.
    @Test func videoRangeRawFramesAreExpandedAndRefusedOnJPEG() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let (width, height) = (640, 360)
        let nv12 = [UInt8](repeating: 235, count: width * height) + [UInt8](repeating: 128, count: width * height / 2)
        func brightness(videoRange: Bool) throws -> Double? {
            let request = AnalyzeFrameRequest(frame: nv12, format: .nv12, width: Int32(width), height: Int32(height),
                                              mode: .document, streamID: "v", videoRange: videoRange)
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(Self.envelope(request)))
            return reply.metrics.first { $0.name == "brightness" }?.value
        }
        #expect(try brightness(videoRange: true) == 255)
        #expect(try brightness(videoRange: false) == 235)
        var jpeg = Self.jpegRequest([0xFF, 0xD8, 0xFF, 0xD9])
        jpeg.videoRange = true
        let error = Self.invalid { try handlers.analyzeFrame(Self.envelope(jpeg)) }
        #expect(error?.violations.map(\.field) == ["video_range"])
    }

    /// A request damaged on the wire (seeded random damage to a sound one, the framing and lengths hardest) is
    /// answered with a reply or INVALID_ARGUMENT, never a crash, and the handler goes on serving sound requests.
    @Test func damagedRequestsAreAnsweredOrRefusedAndTheHandlerKeepsServing() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        var pixels = [UInt8](repeating: 70, count: 96 * 64)
        for y in 16..<48 { for x in 20..<76 { pixels[y * 96 + x] = 200 } }
        let sound = AnalyzeFrameRequest(frame: pixels, format: .gray8, width: 96, height: 64, mode: .document,
                                        streamID: "s", rotation: 90).serialized()
        var mutator = SeededMutator(state: 3)
        var answered = 0, refused = 0
        for _ in 0..<400 {
            var envelope = Self.envelope(AnalyzeFrameRequest(frame: [], format: .jpeg, mode: .document, streamID: "s"))
            envelope.payload = mutator.damaged(sound)
            do {
                _ = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(envelope))
                answered += 1
            } catch let error as ServiceError {
                #expect(error.status == .invalidArgument && !error.violations.isEmpty)
                refused += 1
            }
        }
        #expect(answered + refused == 400 && answered > 0 && refused > 0)
        var envelope = Self.envelope(AnalyzeFrameRequest(frame: [], format: .jpeg, mode: .document, streamID: "s"))
        envelope.payload = sound
        #expect(try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(envelope)).width == 64)
    }

    @Test func everyMalformedFieldIsReportedAtOnce() {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let request = AnalyzeFrameRequest(frame: [1, 2, 3], format: .gray8, width: 0, height: 99_999, stride: 0,
                                          mode: .unspecified, streamID: "")
        let error = Self.invalid { try handlers.analyzeFrame(Self.envelope(request)) }
        #expect(error?.status == .invalidArgument)
        #expect(Set(error?.violations.map(\.field) ?? []) == ["mode", "stream_id", "width", "height"])
        let unspecified = AnalyzeFrameRequest(frame: [1], format: .unspecified, mode: .selfie,
                                              streamID: String(repeating: "x", count: 129))
        let second = Self.invalid { try handlers.analyzeFrame(Self.envelope(unspecified)) }
        #expect(Set(second?.violations.map(\.field) ?? []) == ["format", "stream_id"])
    }

    @Test func routerAnswersMalformedPayloadWithInvalidArgumentAndKeepsServing() throws {
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 1)
        let router = handlers.router(version: "test", logger: Logger(service: "capture", level: .critical))
        var envelope = Self.envelope(Self.jpegRequest([]))
        envelope.payload = [0xFF, 0xFF, 0xFF, 0xFF]
        let bad = router.handle(envelope)
        #expect(bad.status == .invalidArgument)
        #expect(bad.violations.map(\.field) == ["payload"])
        let (set, frames) = try Self.frames("still")
        let good = router.handle(Self.envelope(Self.jpegRequest(try set.bytes(frames[0]))))
        #expect(good.status == .ok)
        #expect(router.methods.contains(CaptureHandlers.analyzeFrameMethod))
    }

    @Test func concurrentCallsGetTheSameAnswersAsSerialOnesAndReuseAnalyzers() async throws {
        // A fixed clock: the sealed tracker state carries its issue time, and equal analyses should give equal bytes.
        let handlers = CaptureHandlers(stateKeys: Self.keys, workerThreads: 4, clock: { 1_760_000_000_000 })
        let (set, frames) = try Self.frames("still")
        let payloads = try frames.map { try set.bytes($0) }
        let serial = try payloads.map { try AnalyzeFrameReply(serialized:
            try handlers.analyzeFrame(Self.envelope(Self.jpegRequest($0)))) }
        let parallel = try await withThrowingTaskGroup(of: (Int, AnalyzeFrameReply).self) { group in
            for round in 0..<4 {
                for (index, payload) in payloads.enumerated() {
                    group.addTask {
                        let reply = try handlers.analyzeFrame(Self.envelope(Self.jpegRequest(payload),
                                                                            id: "r\(round)-\(index)"))
                        return (index, try AnalyzeFrameReply(serialized: reply))
                    }
                }
            }
            var results: [(Int, AnalyzeFrameReply)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(parallel.count == payloads.count * 4)
        for (index, reply) in parallel { #expect(reply == serial[index]) }
        // Never more analyzers than callers at once (the cooperative pool has at most a few threads).
        #expect(handlers.analyzerCount <= max(4, ProcessInfo.processInfo.activeProcessorCount) + 1)
    }
}
