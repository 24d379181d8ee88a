// Swift values for proto/capture.proto (CaptureService's AnalyzeFrame). Names carry a `Capture` prefix so they never
// clash with the engine's own types (FrameAnalysis.FramePoint…) in files that import both.
import CKYCProto
import CProtobufC

/// How the frame's bytes are encoded.
public enum CaptureFrameFormat: Int32, Sendable, Equatable, CaseIterable {
    case unspecified = 0, jpeg = 1, gray8 = 2, nv12 = 3, nv21 = 4
}

/// What the frame should show.
public enum CaptureMode: Int32, Sendable, Equatable, CaseIterable {
    case unspecified = 0, document = 1, selfie = 2
}

/// `capture.AnalyzeFrame`: one camera frame of a capture stream.
public struct AnalyzeFrameRequest: WireMessage, Equatable {
    public var frame: [UInt8]
    /// An enum value this build does not know arrives as `.unspecified`.
    public var format: CaptureFrameFormat
    /// Raw formats only.
    public var width: Int32
    public var height: Int32
    /// Raw formats only: bytes per row of the Y plane; 0 means `width`.
    public var stride: Int32
    public var mode: CaptureMode
    public var streamID: String
    /// Opaque: the `trackerState` of this stream's previous reply; empty to start a stream.
    public var trackerState: [UInt8]
    /// Clockwise degrees (0, 90, 180, 270) that turn the frame upright, after a JPEG's own EXIF orientation.
    public var rotation: Int32
    /// Raw formats only: luma uses 16…235 (iOS "420v") and is expanded to full range before analysis.
    public var videoRange: Bool

    public init(frame: [UInt8], format: CaptureFrameFormat, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0,
                mode: CaptureMode, streamID: String, trackerState: [UInt8] = [], rotation: Int32 = 0,
                videoRange: Bool = false) {
        self.frame = frame
        self.format = format
        self.width = width
        self.height = height
        self.stride = stride
        self.mode = mode
        self.streamID = streamID
        self.trackerState = trackerState
        self.rotation = rotation
        self.videoRange = videoRange
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AnalyzeFrameRequest.self)
        kyc__v1__analyze_frame_request__init(message)
        message.pointee.frame = arena.bytes(frame)
        message.pointee.format = Kyc__V1__FrameFormat(rawValue: UInt32(bitPattern: format.rawValue))
        message.pointee.width = width
        message.pointee.height = height
        message.pointee.stride = stride
        message.pointee.mode = Kyc__V1__CaptureMode(rawValue: UInt32(bitPattern: mode.rawValue))
        message.pointee.stream_id = arena.string(streamID)
        message.pointee.tracker_state = arena.bytes(trackerState)
        message.pointee.rotation = rotation
        message.pointee.video_range = videoRange ? 1 : 0
        return pack(message, size: { kyc__v1__analyze_frame_request__get_packed_size($0) },
                    pack: { kyc__v1__analyze_frame_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AnalyzeFrameRequest",
                          unpack: { kyc__v1__analyze_frame_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__analyze_frame_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return AnalyzeFrameRequest(
                frame: CRead.bytes(c.frame),
                format: CaptureFrameFormat(rawValue: Int32(bitPattern: c.format.rawValue)) ?? .unspecified,
                width: c.width, height: c.height, stride: c.stride,
                mode: CaptureMode(rawValue: Int32(bitPattern: c.mode.rawValue)) ?? .unspecified,
                streamID: CRead.string(c.stream_id), trackerState: CRead.bytes(c.tracker_state), rotation: c.rotation,
                videoRange: c.video_range != 0)
        }
    }
}

/// A point in input pixel coordinates (of the upright frame).
public struct CapturePoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The document's quadrilateral: four corners clockwise from top-left, and a 0…1 confidence.
public struct CaptureDocumentRegion: Sendable, Equatable {
    public var corners: [CapturePoint]
    public var confidence: Double

    public init(corners: [CapturePoint], confidence: Double) {
        self.corners = corners
        self.confidence = confidence
    }
}

/// A face box in input pixels, with the eyes found inside it.
public struct CaptureFaceRegion: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var eyes: Int32

    public init(x: Double, y: Double, width: Double, height: Double, eyes: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.eyes = eyes
    }
}

/// One named measurement.
public struct CaptureMetric: Sendable, Equatable {
    public var name: String
    public var value: Double

    public init(name: String, value: Double) {
        self.name = name
        self.value = value
    }
}

/// One finding: a feedback code with the measured value and the threshold it was judged against (nil: not
/// measured, e.g. NO_DOCUMENT).
public struct CaptureFeedback: Sendable, Equatable {
    public var code: String
    public var value: Double?
    public var threshold: Double?

    public init(code: String, value: Double? = nil, threshold: Double? = nil) {
        self.code = code
        self.value = value
        self.threshold = threshold
    }
}

/// The answer to `capture.AnalyzeFrame`.
public struct AnalyzeFrameReply: WireMessage, Equatable {
    public var width: Int32
    public var height: Int32
    public var region: CaptureDocumentRegion?
    public var faces: [CaptureFaceRegion]
    /// Sorted by name.
    public var metrics: [CaptureMetric]
    /// What to fix first is first; `[GOOD]` when nothing is wrong.
    public var feedback: [CaptureFeedback]
    public var capture: Bool
    /// Send with the stream's next frame.
    public var trackerState: [UInt8]
    public var streamID: String
    /// host:pid of the process that analysed the frame.
    public var instance: String

    public init(width: Int32, height: Int32, region: CaptureDocumentRegion?, faces: [CaptureFaceRegion],
                metrics: [CaptureMetric], feedback: [CaptureFeedback], capture: Bool, trackerState: [UInt8],
                streamID: String, instance: String) {
        self.width = width
        self.height = height
        self.region = region
        self.faces = faces
        self.metrics = metrics
        self.feedback = feedback
        self.capture = capture
        self.trackerState = trackerState
        self.streamID = streamID
        self.instance = instance
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AnalyzeFrameReply.self)
        kyc__v1__analyze_frame_reply__init(message)
        message.pointee.width = width
        message.pointee.height = height
        if let region {
            let c = arena.allocate(Kyc__V1__DocumentRegion.self)
            kyc__v1__document_region__init(c)
            let corners = arena.pointerArray(of: Kyc__V1__FramePoint.self, count: region.corners.count)
            for (index, corner) in region.corners.enumerated() {
                let point = arena.allocate(Kyc__V1__FramePoint.self)
                kyc__v1__frame_point__init(point)
                point.pointee.x = corner.x
                point.pointee.y = corner.y
                corners![index] = point
            }
            c.pointee.n_corners = region.corners.count
            c.pointee.corners = corners
            c.pointee.confidence = region.confidence
            message.pointee.region = c
        }
        let faceArray = arena.pointerArray(of: Kyc__V1__FaceRegion.self, count: faces.count)
        for (index, face) in faces.enumerated() {
            let c = arena.allocate(Kyc__V1__FaceRegion.self)
            kyc__v1__face_region__init(c)
            c.pointee.x = face.x
            c.pointee.y = face.y
            c.pointee.width = face.width
            c.pointee.height = face.height
            c.pointee.eyes = face.eyes
            faceArray![index] = c
        }
        message.pointee.n_faces = faces.count
        message.pointee.faces = faceArray
        let metricArray = arena.pointerArray(of: Kyc__V1__FrameMetric.self, count: metrics.count)
        for (index, metric) in metrics.enumerated() {
            let c = arena.allocate(Kyc__V1__FrameMetric.self)
            kyc__v1__frame_metric__init(c)
            c.pointee.name = arena.string(metric.name)
            c.pointee.value = metric.value
            metricArray![index] = c
        }
        message.pointee.n_metrics = metrics.count
        message.pointee.metrics = metricArray
        let feedbackArray = arena.pointerArray(of: Kyc__V1__FrameFeedback.self, count: feedback.count)
        for (index, item) in feedback.enumerated() {
            let c = arena.allocate(Kyc__V1__FrameFeedback.self)
            kyc__v1__frame_feedback__init(c)
            c.pointee.code = arena.string(item.code)
            c.pointee.value = arena.captureDouble(item.value)
            c.pointee.threshold = arena.captureDouble(item.threshold)
            feedbackArray![index] = c
        }
        message.pointee.n_feedback = feedback.count
        message.pointee.feedback = feedbackArray
        message.pointee.capture = capture ? 1 : 0
        message.pointee.tracker_state = arena.bytes(trackerState)
        message.pointee.stream_id = arena.string(streamID)
        message.pointee.instance = arena.string(instance)
        return pack(message, size: { kyc__v1__analyze_frame_reply__get_packed_size($0) },
                    pack: { kyc__v1__analyze_frame_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AnalyzeFrameReply",
                          unpack: { kyc__v1__analyze_frame_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__analyze_frame_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            let region = c.region.map { region in
                CaptureDocumentRegion(
                    corners: CRead.messages(region.pointee.n_corners, region.pointee.corners) { point in
                        CapturePoint(x: point.pointee.x, y: point.pointee.y)
                    },
                    confidence: region.pointee.confidence)
            }
            return AnalyzeFrameReply(
                width: c.width, height: c.height, region: region,
                faces: CRead.messages(c.n_faces, c.faces) { face in
                    CaptureFaceRegion(x: face.pointee.x, y: face.pointee.y, width: face.pointee.width,
                                      height: face.pointee.height, eyes: face.pointee.eyes)
                },
                metrics: CRead.messages(c.n_metrics, c.metrics) { metric in
                    CaptureMetric(name: CRead.string(metric.pointee.name), value: metric.pointee.value)
                },
                feedback: CRead.messages(c.n_feedback, c.feedback) { item in
                    CaptureFeedback(code: CRead.string(item.pointee.code), value: item.pointee.value?.pointee.value,
                                    threshold: item.pointee.threshold?.pointee.value)
                },
                capture: c.capture != 0, trackerState: CRead.bytes(c.tracker_state),
                streamID: CRead.string(c.stream_id), instance: CRead.string(c.instance))
        }
    }
}

extension CArena {
    /// A `CaptureDoubleValue` presence wrapper, or nil (absent on the wire) for nil.
    fileprivate func captureDouble(_ value: Double?) -> UnsafeMutablePointer<Kyc__V1__CaptureDoubleValue>? {
        guard let value else { return nil }
        let wrapper = allocate(Kyc__V1__CaptureDoubleValue.self)
        kyc__v1__capture_double_value__init(wrapper)
        wrapper.pointee.value = value
        return wrapper
    }
}
