// Auto-capture for one stream: a small Codable value, so the state can travel with each request.

/// Decides when to capture: the document has been GOOD and still (corners moving less than
/// `maxCornerMotion` of the diagonal between consecutive frames) for `stillFrames` consecutive frames.
public struct CaptureTracker: Sendable, Codable, Equatable {
    /// Consecutive GOOD-and-still frames so far (the first GOOD frame counts as 1).
    public private(set) var consecutiveGood: Int = 0
    /// Corners of the previous GOOD frame, normalised to 0…1 of the frame (so streams may change resolution).
    public private(set) var previousCorners: [FramePoint]? = nil
    /// Mean corner movement from the previous frame, as a share of the diagonal (nil without a previous frame).
    public private(set) var lastMotion: Double? = nil
    /// True once the current still run has captured; the next capture needs a new run (movement or a bad frame).
    public private(set) var captured: Bool = false
    /// The region the previous frame found, whatever its feedback (normalised like `previousCorners`): its document's
    /// four corners, or its face box (top-left, bottom-right) when it had exactly one face. The next frame's card or
    /// face is looked for around it first (see `hint`). Nil after a frame without one.
    public private(set) var previousRegion: [FramePoint]? = nil
    /// Frames in a row found around the previous frame's corners (the analysis's `tracked` metric) since the last one
    /// searched whole.
    public private(set) var trackedInARow: Int = 0
    /// Mean corner movement of the region between the last two frames that had one, whatever their feedback (nil
    /// otherwise), as a share of the diagonal: a card still moving is searched whole (see `hint`).
    public private(set) var regionMotion: Double? = nil

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case consecutiveGood, previousCorners, lastMotion, captured, previousRegion, trackedInARow, regionMotion
    }

    /// Reads states sealed by earlier releases too: fields added since (`previousRegion`, `trackedInARow`,
    /// `regionMotion`) start empty when absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        consecutiveGood = try c.decode(Int.self, forKey: .consecutiveGood)
        previousCorners = try c.decodeIfPresent([FramePoint].self, forKey: .previousCorners)
        lastMotion = try c.decodeIfPresent(Double.self, forKey: .lastMotion)
        captured = try c.decode(Bool.self, forKey: .captured)
        previousRegion = try c.decodeIfPresent([FramePoint].self, forKey: .previousRegion)
        trackedInARow = try c.decodeIfPresent(Int.self, forKey: .trackedInARow) ?? 0
        regionMotion = try c.decodeIfPresent(Double.self, forKey: .regionMotion)
    }

    /// Feeds one analysed frame; returns true when the frame should be captured (GOOD and still for N frames).
    /// Selfie frames count as still when their face box moves less than the same threshold.
    public mutating func update(with analysis: FrameAnalysis, thresholds: AnalysisThresholds) -> Bool {
        // A selfie's face is followed only when it was alone: after a second person the next frame is searched whole.
        let region = analysis.mode == .document || analysis.faces.count == 1 ? Self.normalisedCorners(of: analysis)
            : nil
        if let previous = previousRegion, let region, previous.count == region.count {
            regionMotion = Self.motion(from: previous, to: region, width: analysis.width, height: analysis.height)
        } else {
            regionMotion = nil
        }
        previousRegion = region
        trackedInARow = analysis.metrics["tracked"] != nil ? trackedInARow + 1 : 0
        guard analysis.primary == .good, let corners = Self.normalisedCorners(of: analysis) else {
            reset()
            return false
        }
        if let previous = previousCorners, previous.count == corners.count {
            let motion = Self.motion(from: previous, to: corners, width: analysis.width, height: analysis.height)
            lastMotion = motion
            consecutiveGood = motion <= thresholds.maxCornerMotion ? consecutiveGood + 1 : 1
        } else {
            lastMotion = nil
            consecutiveGood = 1
        }
        previousCorners = corners
        if consecutiveGood == 1 { captured = false }
        // Capture once per still run: the user is not asked to hold still again for the same document.
        if consecutiveGood >= thresholds.stillFrames && !captured {
            captured = true
            return true
        }
        return false
    }

    /// The region the next frame is first searched around (`FrameAnalyzer.analyze(_:mode:previous:)`),
    /// or nil when the next frame is to be searched whole: the frame that may be captured, so a capture is always
    /// decided on a frame searched whole and a card that tracking followed onto a wrong outline (its own print, after
    /// a jump) is never captured (the capturing frame's outline must also be still against the tracked one before
    /// it, so a wrong track breaks the still run); the frame after `maxTrackedFrames` tracked ones, so a wrong
    /// track does not last; and a frame after the card moved more than `maxCornerMotion` (see `regionMotion`).
    public func hint(thresholds: AnalysisThresholds) -> [FramePoint]? {
        if !captured && consecutiveGood + 1 >= thresholds.stillFrames { return nil }
        if trackedInARow >= thresholds.maxTrackedFrames { return nil }
        // A card that moved more than `maxCornerMotion` (the still threshold) between the last two frames is likely
        // still moving, further than the tracked bands reach: looking there first would only add to the search.
        if let motion = regionMotion, motion > thresholds.maxCornerMotion { return nil }
        return previousRegion
    }

    /// The feedback to send for `analysis` after `update(with:thresholds:)` returned `captured`: the engine's, except
    /// that a GOOD frame whose document moved since the previous one is HOLD_STEADY (with the motion and its
    /// threshold). Documents only: HOLD_STEADY is not a selfie code (a selfie that moves between frames restarts the
    /// still run, and its motion blur is BLURRY). CaptureService and `kycctl analyze --sequence` answer the same way.
    public func feedback(for analysis: FrameAnalysis, captured: Bool, thresholds: AnalysisThresholds) -> [Feedback] {
        guard !captured, analysis.mode == .document, analysis.primary == .good, waitingFeedback == .holdSteady else {
            return analysis.feedback
        }
        return [Feedback(code: .holdSteady, value: lastMotion, threshold: thresholds.maxCornerMotion)]
    }

    /// What to tell the user while waiting: HOLD_STEADY when the frame is GOOD but the document moved since the
    /// previous frame, nil otherwise.
    public var waitingFeedback: FeedbackCode? {
        guard consecutiveGood == 1, lastMotion != nil else { return nil }
        return .holdSteady
    }

    private mutating func reset() {
        consecutiveGood = 0
        captured = false
        previousCorners = nil
        lastMotion = nil
    }

    /// Mean distance between matching normalised points of two frames of `width` × `height`, as a share of its
    /// diagonal.
    private static func motion(from a: [FramePoint], to b: [FramePoint], width: Int, height: Int) -> Double {
        var total = 0.0
        for (p, q) in zip(a, b) {
            let dx = (p.x - q.x) * Double(width), dy = (p.y - q.y) * Double(height)
            total += (dx * dx + dy * dy).squareRoot()
        }
        let diagonal = Double(width * width + height * height).squareRoot()
        return total / Double(max(a.count, 1)) / max(diagonal, 1)
    }

    private static func normalisedCorners(of analysis: FrameAnalysis) -> [FramePoint]? {
        let w = Double(max(analysis.width, 1)), h = Double(max(analysis.height, 1))
        switch analysis.mode {
        case .document:
            guard let region = analysis.region, region.corners.count == 4 else { return nil }
            return region.corners.map { FramePoint(x: $0.x / w, y: $0.y / h) }
        case .selfie:
            guard let face = analysis.faces.first else { return nil }
            return [FramePoint(x: face.x / w, y: face.y / h),
                    FramePoint(x: (face.x + face.width) / w, y: (face.y + face.height) / h)]
        }
    }
}
