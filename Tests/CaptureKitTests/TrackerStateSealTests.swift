import CaptureKit
import FrameAnalysis
import Foundation
import KYCCrypto
import KYCMessages
import Messaging
import Synchronization
import Testing
import TestSupport

/// The sealed tracker state through capture.AnalyzeFrame: a state is accepted only unaltered, by a process holding
/// the key (or the previous key), for the tenant, stream and mode it was issued for, and while it is young.
@Suite("Tracker state seal")
struct TrackerStateSealTests {
    /// A clock the test moves by hand (Unix milliseconds).
    final class TestClock: Sendable {
        let milliseconds: Atomic<Int64>
        init(_ start: Int64 = 1_760_000_000_000) { milliseconds = Atomic(start) }
        func advance(by delta: Int64) { milliseconds.add(delta, ordering: .relaxed) }
        var read: @Sendable () -> Int64 { { self.milliseconds.load(ordering: .relaxed) } }
    }

    static func handlers(_ keys: TrackerStateKeys, clock: TestClock, maxAge: Int = 30,
                         instance: String = "test:1") -> CaptureHandlers {
        var configuration = CaptureServiceConfiguration()
        configuration.stateMaxAgeSeconds = maxAge
        return CaptureHandlers(configuration: configuration, stateKeys: keys, workerThreads: 1, instance: instance,
                               clock: clock.read)
    }

    /// A small raw gray frame: a bright card on a dark background (cheap to analyse; any frame yields a state).
    static func request(stream: String = "stream-1", mode: CaptureMode = .document, state: [UInt8] = [])
        -> AnalyzeFrameRequest {
        let (width, height) = (320, 200)
        var pixels = [UInt8](repeating: 50, count: width * height)
        for y in 50..<150 { for x in 80..<240 { pixels[y * width + x] = 215 } }
        return AnalyzeFrameRequest(frame: pixels, format: .gray8, width: Int32(width), height: Int32(height),
                                   mode: mode, streamID: stream, trackerState: state)
    }

    static func envelope(_ request: AnalyzeFrameRequest, tenant: String = "acme") -> RequestEnvelope {
        var envelope = RequestEnvelope()
        envelope.requestID = "req-1"
        envelope.tenant = tenant
        envelope.method = CaptureHandlers.analyzeFrameMethod
        envelope.payload = request.serialized()
        return envelope
    }

    /// The state `handlers` issues for the first frame of a stream.
    static func issuedState(_ handlers: CaptureHandlers, stream: String = "stream-1", mode: CaptureMode = .document,
                            tenant: String = "acme") throws -> [UInt8] {
        let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(
            envelope(request(stream: stream, mode: mode), tenant: tenant)))
        return reply.trackerState
    }

    /// nil when `handlers` accepts `state` with the given request; otherwise the ServiceError.
    static func refusal(_ handlers: CaptureHandlers, _ state: [UInt8], stream: String = "stream-1",
                        mode: CaptureMode = .document, tenant: String = "acme") -> ServiceError? {
        do {
            _ = try handlers.analyzeFrame(envelope(request(stream: stream, mode: mode, state: state), tenant: tenant))
            return nil
        } catch {
            return error
        }
    }

    static func expectInvalidState(_ error: ServiceError?, _ comment: Comment? = nil,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.status == .invalidArgument, comment, sourceLocation: sourceLocation)
        #expect(error?.violations.map(\.field) == ["tracker_state"], comment, sourceLocation: sourceLocation)
        #expect(error?.violations.first?.code == "invalid_state", comment, sourceLocation: sourceLocation)
    }

    /// `version ‖ issuedAt ‖ payload ‖ tag` with a tag made up by the caller.
    static func handMade(payload: String, issuedAt: Int64, tag: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [1]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: issuedAt >> shift)) }
        return bytes + Array(payload.utf8) + tag
    }

    /// A tracker that claims two GOOD, still frames: with the default stillFrames (3) the next GOOD frame would
    /// be captured at once.
    static let forgedPayload = #"{"captured":false,"consecutiveGood":2,"lastMotion":0,"#
        + #""previousCorners":[{"x":0.25,"y":0.25},{"x":0.75,"y":0.25},{"x":0.75,"y":0.75},{"x":0.25,"y":0.75}]}"#

    @Test func issuedStateIsAcceptedAndCompact() throws {
        let clock = TestClock()
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: clock)
        let state = try Self.issuedState(handlers)
        #expect(state.first == 1)
        #expect(state.count < 400, "the state travels on every frame: \(state.count) bytes")
        #expect(Self.refusal(handlers, state) == nil)
    }

    @Test func forgedTagIsRefused() throws {
        let clock = TestClock()
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: clock)
        let now = clock.read()
        for tag in [[UInt8](repeating: 0, count: 32), SecureRandom.bytes(32), [], SecureRandom.bytes(16)] {
            Self.expectInvalidState(Self.refusal(handlers, Self.handMade(payload: Self.forgedPayload, issuedAt: now,
                                                                         tag: tag)))
        }
        // Unsealed JSON, as states were before they were sealed, is refused too.
        Self.expectInvalidState(Self.refusal(handlers, Array(Self.forgedPayload.utf8)))
    }

    @Test func flippingAnyByteOfAStateIsRefused() throws {
        let clock = TestClock()
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: clock)
        let state = try Self.issuedState(handlers)
        for index in state.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var altered = state
                altered[index] ^= mask
                Self.expectInvalidState(Self.refusal(handlers, altered), "byte \(index) ^ \(mask)")
            }
        }
        Self.expectInvalidState(Self.refusal(handlers, Array(state.dropLast())), "truncated")
        Self.expectInvalidState(Self.refusal(handlers, state + [0]), "extended")
        Self.expectInvalidState(Self.refusal(handlers, Array(state.prefix(9))), "header only")
    }

    @Test func stateOfAnotherTenantStreamOrModeIsRefused() throws {
        let clock = TestClock()
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: clock)
        let state = try Self.issuedState(handlers, stream: "stream-1", mode: .document, tenant: "acme")
        #expect(Self.refusal(handlers, state, stream: "stream-1", mode: .document, tenant: "acme") == nil)
        Self.expectInvalidState(Self.refusal(handlers, state, tenant: "globex"), "other tenant")
        Self.expectInvalidState(Self.refusal(handlers, state, tenant: ""), "no tenant")
        Self.expectInvalidState(Self.refusal(handlers, state, stream: "stream-2"), "other stream")
        Self.expectInvalidState(Self.refusal(handlers, state, stream: "stream-"), "prefix of the stream")
        Self.expectInvalidState(Self.refusal(handlers, state, mode: .selfie), "other mode")
        // Length-prefixed fields: moving bytes between tenant and stream does not give the same tag.
        let split = try Self.issuedState(handlers, stream: "b-c", tenant: "a")
        Self.expectInvalidState(Self.refusal(handlers, split, stream: "c", tenant: "a-b"), "shifted boundary")
    }

    @Test func stateOlderThanTheMaximumAgeIsRefusedAndTheStreamStartsOver() throws {
        let clock = TestClock()
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: clock, maxAge: 30)
        let state = try Self.issuedState(handlers)
        clock.advance(by: 30_000)
        #expect(Self.refusal(handlers, state) == nil, "exactly the maximum age is still accepted")
        clock.advance(by: 1)
        let error = Self.refusal(handlers, state)
        Self.expectInvalidState(error)
        #expect(error?.message.contains("30 s") == true, "\(error?.message ?? "")")
        // Starting over: the same frame with an empty state is served.
        #expect(Self.refusal(handlers, []) == nil)
    }

    @Test func maximumAgeIsConfigurable() throws {
        let clock = TestClock()
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: clock, maxAge: 5)
        let state = try Self.issuedState(handlers)
        clock.advance(by: 5_001)
        Self.expectInvalidState(Self.refusal(handlers, state))
    }

    @Test func stateFromTheFutureBeyondTheClockSkewIsRefused() throws {
        let keys = TrackerStateKeys.random()
        let fastClock = TestClock(1_760_000_010_000)
        let fast = Self.handlers(keys, clock: fastClock, instance: "fast")
        let clock = TestClock(1_760_000_000_000)
        let handlers = Self.handlers(keys, clock: clock)
        // Issued 10 s ahead of this host's clock: beyond the 5 s allowed.
        let state = try Self.issuedState(fast)
        let error = Self.refusal(handlers, state)
        Self.expectInvalidState(error)
        #expect(error?.message.contains("future") == true)
        // Within the skew (5 s ahead) it is accepted.
        clock.advance(by: 5_000)
        #expect(Self.refusal(handlers, state) == nil)
        // Extreme times (a clock gone wild) are refused without overflowing: as from the future, or as expired.
        let far = Self.handlers(keys, clock: TestClock(.max), instance: "far")
        #expect(Self.refusal(handlers, try Self.issuedState(far))?.message.contains("future") == true)
        let early = Self.handlers(keys, clock: TestClock(.min), instance: "early")
        #expect(Self.refusal(handlers, try Self.issuedState(early))?.message.contains("older") == true)
    }

    @Test func stateSealedWithThePreviousKeyIsAcceptedAfterARotation() throws {
        let clock = TestClock()
        let old = TrackerStateKeys.random()
        let before = Self.handlers(old, clock: clock, instance: "before")
        let rotated = try TrackerStateKeys(current: SecureRandom.bytes(32), previous: old.current)
        let after = Self.handlers(rotated, clock: clock, instance: "after")
        let state = try Self.issuedState(before)
        #expect(Self.refusal(after, state) == nil, "a stream in flight survives the rotation")
        // The rotated process seals with its new key only: a process that knows only the old key refuses it.
        let newState = try Self.issuedState(after)
        #expect(Self.refusal(after, newState) == nil)
        Self.expectInvalidState(Self.refusal(before, newState))
    }

    @Test func stateSealedWithAnUnknownKeyIsRefused() throws {
        let clock = TestClock()
        let other = Self.handlers(TrackerStateKeys.random(), clock: clock, instance: "other")
        let handlers = Self.handlers(try TrackerStateKeys(current: SecureRandom.bytes(32),
                                                           previous: SecureRandom.bytes(32)), clock: clock)
        Self.expectInvalidState(Self.refusal(handlers, try Self.issuedState(other)))
    }

    @Test func keysShorterThan32BytesAreRefused() {
        #expect(throws: CaptureConfigurationError.self) { try TrackerStateKeys(current: SecureRandom.bytes(31)) }
        #expect(throws: CaptureConfigurationError.self) {
            try TrackerStateKeys(current: SecureRandom.bytes(32), previous: SecureRandom.bytes(16))
        }
        #expect(throws: Never.self) { try TrackerStateKeys(current: SecureRandom.bytes(32)) }
    }

    @Test func oversizedStateIsTooLong() {
        let handlers = Self.handlers(TrackerStateKeys.random(), clock: TestClock())
        let error = Self.refusal(handlers, [UInt8](repeating: 1, count: 4097))
        #expect(error?.violations.map(\.field) == ["tracker_state"])
        #expect(error?.violations.first?.code == "too_long")
    }

    @Test func twoHandlersSharingAKeyFileCarryAStreamToACapture() throws {
        let scratch = try TemporaryDirectory("kyc-seal")
        defer { scratch.remove() }
        let directory = scratch.file("data")
        let configuration = CaptureServiceConfiguration()
        // As two CaptureService processes of one stack: each loads (or creates) the key file on its own.
        let first = CaptureHandlers(configuration: configuration,
                                    stateKeys: try configuration.stateKeys(dataDirectory: directory),
                                    workerThreads: 1, instance: "host:1")
        let second = CaptureHandlers(configuration: configuration,
                                     stateKeys: try configuration.stateKeys(dataDirectory: directory),
                                     workerThreads: 1, instance: "host:2")
        let set = try GeneratedFrames.accuracySet.get()
        let frames = set.labels.filter { $0.sequence == "still" }.sorted { $0.file < $1.file }
        var state: [UInt8] = []
        var captured: Int?
        for (index, frame) in frames.enumerated() {
            let handlers = index % 2 == 0 ? first : second
            let request = AnalyzeFrameRequest(frame: try set.bytes(frame), format: .jpeg, mode: .document,
                                              streamID: "shared", trackerState: state)
            let reply = try AnalyzeFrameReply(serialized: try handlers.analyzeFrame(Self.envelope(request)))
            if reply.capture && captured == nil { captured = index }
            state = reply.trackerState
        }
        #expect(captured == AnalysisThresholds.default.stillFrames - 1)
    }
}
