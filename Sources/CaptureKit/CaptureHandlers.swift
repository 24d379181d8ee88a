// CaptureService's handlers: capture.AnalyzeFrame runs the frame-analysis engine and the stream's auto-capture
// tracker, whose state comes in with the request and goes back with the reply (any process can serve any frame),
// sealed with the processes' shared key so that a client can neither forge nor keep it long (CaptureTrackerState).
import FrameAnalysis
import KYCCore
import KYCMessages
import Messaging

/// The capture methods, testable without sockets.
public struct CaptureHandlers: Sendable {
    public static let service = "capture"
    public static let analyzeFrameMethod = "capture.AnalyzeFrame"
    /// Longest accepted stream id, in UTF-8 bytes.
    public static let maxStreamIDBytes = 128
    /// Largest raw frame side accepted before the engine looks at it (the pixel maximum applies too).
    public static let maxRawSide = 16_384

    public let thresholds: AnalysisThresholds
    public let instance: String
    private let analyzers: FrameAnalyzerPool
    private let trackerStates: CaptureTrackerState

    /// `stateKeys`: the keys sealing tracker states; every process serving the same streams needs the same current
    /// key (`CaptureServiceConfiguration.stateKeys(dataDirectory:)`). `workerThreads`: analyzers kept for reuse (one
    /// per worker thread); `instance` is echoed in each reply; `clock`: Unix milliseconds now (tests move it).
    public init(configuration: CaptureServiceConfiguration = CaptureServiceConfiguration(), stateKeys: TrackerStateKeys,
                workerThreads: Int, instance: String = ServiceRouter.defaultInstance(),
                clock: @escaping @Sendable () -> Int64 = WallClock.nowMilliseconds) {
        let thresholds = configuration.thresholds
        let maxPixels = configuration.maxPixels
        self.thresholds = thresholds
        self.instance = instance
        trackerStates = CaptureTrackerState(keys: stateKeys,
                                            maxAgeMilliseconds: Int64(configuration.stateMaxAgeSeconds) * 1000,
                                            now: clock)
        analyzers = FrameAnalyzerPool(capacity: workerThreads) {
            FrameAnalyzer(thresholds: thresholds, maxPixels: maxPixels)
        }
    }

    /// Analyzers made so far (one per concurrently busy thread).
    public var analyzerCount: Int { analyzers.createdCount }

    /// A router serving every capture method.
    public func router(version: String, logger: Logger) -> ServiceRouter {
        var router = ServiceRouter(service: Self.service, version: version, instance: instance, logger: logger)
        router.register(Self.analyzeFrameMethod) { envelope in try analyzeFrame(envelope) }
        return router
    }

    /// `capture.AnalyzeFrame`: INVALID_ARGUMENT for a malformed request, a `tracker_state` that is not this
    /// tenant's, stream's and mode's or is too old (`invalid_state`), or a frame the engine cannot read (field
    /// `frame`, the engine's code); otherwise the analysis, the capture decision and the next tracker state.
    public func analyzeFrame(_ envelope: RequestEnvelope) throws(ServiceError) -> [UInt8] {
        let request: AnalyzeFrameRequest
        do {
            request = try AnalyzeFrameRequest(serialized: envelope.payload)
        } catch {
            throw ServiceError.invalidArgument(field: "payload", code: "malformed",
                                               message: "the request is not an AnalyzeFrameRequest")
        }
        let (input, mode, rotation, tracker) = try validated(request, tenant: envelope.tenant)
        var next = tracker
        let frame: StreamFrame
        do {
            frame = try analyzers.withAnalyzer { analyzer throws(FrameAnalysisError) in
                try analyzer.analyze(input, mode: mode, rotation: rotation, stream: &next)
            }
        } catch {
            throw ServiceError.invalidArgument(field: "frame", code: error.code.rawValue, message: error.message)
        }
        let reply = AnalyzeFrameReply(
            analysis: frame.analysis, feedback: frame.feedback, capture: frame.capture,
            trackerState: trackerStates.seal(next, for: TrackerStateBinding(tenant: envelope.tenant,
                                                                            stream: request.streamID, mode: mode)),
            streamID: request.streamID, instance: instance)
        return reply.serialized()
    }

    /// The engine input, mode, rotation and tracker of a well-formed request; every malformed field is reported at
    /// once.
    private func validated(_ request: AnalyzeFrameRequest, tenant: String) throws(ServiceError)
        -> (FrameInput, FrameMode, FrameRotation, CaptureTracker)
    {
        var violations: [FieldViolation] = []
        func violation(_ field: String, _ code: String, _ message: String) {
            violations.append(FieldViolation(field: field, code: code, message: message))
        }
        let mode: FrameMode?
        switch request.mode {
        case .document: mode = .document
        case .selfie: mode = .selfie
        case .unspecified:
            mode = nil
            violation("mode", "invalid_value", "mode must be document or selfie")
        }
        if request.streamID.isEmpty {
            violation("stream_id", "required", "stream_id is required")
        } else if request.streamID.utf8.count > Self.maxStreamIDBytes {
            violation("stream_id", "too_long", "stream_id must be at most \(Self.maxStreamIDBytes) bytes")
        }
        let rotation = FrameRotation(degrees: Int(request.rotation))
        if rotation == nil {
            violation("rotation", "invalid_value", "rotation must be 0, 90, 180 or 270 (clockwise degrees)")
        }
        var input: FrameInput?
        switch request.format {
        case .unspecified:
            violation("format", "invalid_value", "format must be jpeg, gray8, nv12 or nv21")
        case .jpeg:
            if request.videoRange {
                violation("video_range", "invalid_value",
                          "video_range applies to raw frames only (a JPEG's luma is full range)")
            }
            input = .jpeg(request.frame)
        case .gray8, .nv12, .nv21:
            let width = Int(request.width), height = Int(request.height)
            let stride = request.stride == 0 ? width : Int(request.stride)
            let sides = 1...Self.maxRawSide
            if !sides.contains(width) {
                violation("width", "invalid_value", "width must be 1…\(Self.maxRawSide) for a raw frame")
            }
            if !sides.contains(height) {
                violation("height", "invalid_value", "height must be 1…\(Self.maxRawSide) for a raw frame")
            }
            if stride < width || stride > 4 * Self.maxRawSide {
                violation("stride", "invalid_value", "stride must be at least width (0 means width)")
            }
            let format: RawPixelFormat = request.format == .gray8 ? .gray8 : request.format == .nv12 ? .nv12 : .nv21
            input = .raw(bytes: request.frame, width: width, height: height, stride: stride, format: format,
                         lumaRange: request.videoRange ? .video : .full)
        }
        var tracker = CaptureTracker()
        if let mode, violations.allSatisfy({ $0.field != "stream_id" }) {
            do {
                tracker = try trackerStates.open(request.trackerState,
                                                 for: TrackerStateBinding(tenant: tenant, stream: request.streamID,
                                                                          mode: mode))
            } catch {
                // Every refusal but the size is `invalid_state`: the client's answer is the same (send the frame
                // again with an empty tracker_state, starting the still run over); the message says why.
                switch error {
                case .tooLong:
                    violation("tracker_state", "too_long",
                              "tracker_state must be at most \(CaptureTrackerState.maxBytes) bytes")
                case .unauthentic:
                    violation("tracker_state", "invalid_state", "tracker_state must be the unaltered tracker_state "
                              + "of this stream's previous reply (same tenant, stream and mode)")
                case .expired:
                    violation("tracker_state", "invalid_state", "tracker_state is older than "
                              + "\(trackerStates.maxAgeMilliseconds / 1000) s: start the stream over with an empty "
                              + "tracker_state")
                case .issuedInTheFuture:
                    violation("tracker_state", "invalid_state",
                              "tracker_state was issued in the future (clocks of the CaptureService hosts differ)")
                }
            }
        }
        guard violations.isEmpty, let input, let mode, let rotation else {
            let message = violations.count == 1 ? violations[0].message : "\(violations.count) fields are invalid"
            throw ServiceError(status: .invalidArgument, code: violations.count == 1 ? violations[0].code
                                   : "validation_failed", message: message, violations: violations)
        }
        return (input, mode, rotation, tracker)
    }
}
