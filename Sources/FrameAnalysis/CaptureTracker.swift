// Auto-capture for one stream: a small Codable value, so the state can travel with each request.

/// Decides when to capture: the document has been GOOD and still (corners moving less than
/// `maxCornerMotion` of the diagonal between consecutive frames) for `stillFrames` consecutive frames.
///
/// It keeps one region, the previous frame's, and one motion, the region's movement between the last two frames;
/// both rules read them: auto-capture when the frames were GOOD (`consecutiveGood`, `movedWhileGood`), the tracking
/// hint when their regions may be followed (`followableInARow`). A GOOD selfie with a small second face thus counts
/// for stillness, while its box is not followed.
public struct CaptureTracker: Sendable, Codable, Equatable {
    /// Consecutive GOOD-and-still frames so far (the first GOOD frame counts as 1). Not 0 exactly when the previous
    /// frame was GOOD: only then is this frame's stillness measured against `previousRegion`.
    public private(set) var consecutiveGood: Int = 0
    /// True once the current still run has captured; the next capture needs a new run (movement or a bad frame).
    public private(set) var captured: Bool = false
    /// The region the previous frame found, whatever its feedback, normalised to 0…1 of the frame (so streams may
    /// change resolution): its document's four corners, or its first face's box (top-left, bottom-right). Nil after a
    /// frame without one. Stillness is measured from it when that frame was GOOD, and the next frame's card or face is
    /// looked for around it first when it may be followed (see `hint`).
    public private(set) var previousRegion: [FramePoint]? = nil
    /// Mean corner movement of the region between the last two frames, whatever their feedback, as a share of the
    /// diagonal (nil unless both had one): HOLD_STEADY's value, and a card still moving is searched whole (`hint`).
    public private(set) var regionMotion: Double? = nil
    /// Frames in a row, up to the previous one, whose region may be followed: a document's, or a face that was alone
    /// (after a second person the next frame is searched whole), counted up to 2. 0 after a frame without a region.
    /// `hint` hands out `previousRegion` from 1 on, and reads `regionMotion` as the card's movement from 2 on (both
    /// regions followable); no rule tells longer runs apart, so the count stops there.
    public private(set) var followableInARow: Int = 0
    /// True when the previous frame was GOOD, as was the one before, but moved more than `maxCornerMotion` between
    /// them, so that its still run started over: the user is told to HOLD_STEADY (`waitingFeedback`).
    public private(set) var movedWhileGood: Bool = false
    /// Frames in a row found around the previous frame's corners (the analysis's `tracked` metric) since the last one
    /// searched whole.
    public private(set) var trackedInARow: Int = 0
    /// Frames in a row, up to the previous one, in which nothing was found (no card accepted, no face, no card's
    /// portrait: `portraitSize`), counted 1…`wholeSearchEvery` and round again (0 after a frame with any of them and
    /// at a stream's start): the frames that count below that bound are searched lightly (`searchesLightly`), the
    /// one that reaches it whole.
    public private(set) var emptyInARow: Int = 0
    /// True when the previous frame's card was found in colour (metric `colourEdges`): the next frame follows it in
    /// the colour contrast image (`FrameAnalyzer.analyze(previousInColour:)`). Absent in older states: false.
    public private(set) var previousInColour: Bool = false

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case consecutiveGood, captured, previousRegion, regionMotion, followableInARow, movedWhileGood, trackedInARow,
             emptyInARow, previousInColour
    }

    /// The keys of states sealed before the previous GOOD frame's corners and their motion were merged into
    /// `previousRegion` and `regionMotion` (cb4381c and every earlier release).
    private enum SeparateGoodRegionKeys: String, CodingKey {
        case previousCorners, lastMotion
    }

    /// Reads states sealed by earlier releases too, into the same decisions and hints they would have given: those
    /// kept the previous GOOD frame's corners and motion (`previousCorners`, `lastMotion`) beside the previous frame's
    /// followable region and motion (`previousRegion`, `regionMotion`, both absent before streams were tracked).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        consecutiveGood = try c.decode(Int.self, forKey: .consecutiveGood)
        captured = try c.decode(Bool.self, forKey: .captured)
        trackedInARow = try c.decodeIfPresent(Int.self, forKey: .trackedInARow) ?? 0
        emptyInARow = try c.decodeIfPresent(Int.self, forKey: .emptyInARow) ?? 0
        previousInColour = try c.decodeIfPresent(Bool.self, forKey: .previousInColour) ?? false
        let region = try c.decodeIfPresent([FramePoint].self, forKey: .previousRegion)
        let motion = try c.decodeIfPresent(Double.self, forKey: .regionMotion)
        if let followable = try c.decodeIfPresent(Int.self, forKey: .followableInARow) {
            previousRegion = region
            regionMotion = motion
            followableInARow = followable
            movedWhileGood = try c.decode(Bool.self, forKey: .movedWhileGood)
            return
        }
        let old = try decoder.container(keyedBy: SeparateGoodRegionKeys.self)
        let goodCorners = try old.decodeIfPresent([FramePoint].self, forKey: .previousCorners)
        let goodMotion = try old.decodeIfPresent(Double.self, forKey: .lastMotion)
        // Present, the GOOD frame's corners are the previous frame's region: the followable region equals them when
        // it is there too, and is missing after a selfie with a second face and in states from before tracking (so
        // such a region is not followed, as it was not then).
        previousRegion = goodCorners ?? region
        // When both motions are present they were measured between the same two regions. The followable one is the
        // card's movement for the hint only when it is there (two followable regions in a row gave it).
        regionMotion = motion ?? goodMotion
        followableInARow = region == nil ? 0 : motion == nil ? 1 : 2
        // The old rule for HOLD_STEADY: a GOOD frame that started its run over, with a motion from a GOOD frame.
        movedWhileGood = consecutiveGood == 1 && goodMotion != nil
    }

    /// Feeds one analysed frame; returns true when the frame should be captured (GOOD and still for N frames).
    /// Selfie frames count as still when their face box moves less than the same threshold.
    public mutating func update(with analysis: FrameAnalysis, thresholds: AnalysisThresholds) -> Bool {
        let region = Self.normalisedCorners(of: analysis)
        let motion: Double? = if let previous = previousRegion, let region, previous.count == region.count {
            Self.motion(from: previous, to: region, width: analysis.width, height: analysis.height)
        } else {
            nil
        }
        let previousWasGood = consecutiveGood > 0
        previousRegion = region
        regionMotion = motion
        // A selfie's face is followed only when it was alone: after a second person the next frame is searched whole.
        let followable = region != nil && (analysis.mode == .document || analysis.faces.count == 1)
        followableInARow = followable ? min(followableInARow + 1, 2) : 0
        trackedInARow = analysis.metrics["tracked"] != nil ? trackedInARow + 1 : 0
        // (A card seen by its portrait alone (`portraitSize`: too close, or cut by the frame's edge) was found: only the
        // whole search reads it.)
        let foundNothing = region == nil && analysis.metrics["portraitSize"] == nil
        emptyInARow = foundNothing ? emptyInARow % max(thresholds.wholeSearchEvery, 1) + 1 : 0
        previousInColour = region != nil && analysis.metrics["colourEdges"] != nil
        guard analysis.primary == .good, region != nil else {
            reset()
            return false
        }
        // Still is measured between GOOD frames only: a run starts at the first GOOD frame after one that was not.
        if previousWasGood, let motion, motion <= thresholds.maxCornerMotion {
            consecutiveGood += 1
            movedWhileGood = false
        } else {
            // Moved since the GOOD frame before (HOLD_STEADY), or the first GOOD frame after one that was not.
            movedWhileGood = previousWasGood && motion != nil
            consecutiveGood = 1
        }
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
    /// track does not last; a frame after a region that may not be followed (a second person, see
    /// `followableInARow`); and a frame after the card moved more than `maxCornerMotion` (see `regionMotion`).
    public func hint(thresholds: AnalysisThresholds) -> [FramePoint]? {
        if !captured && consecutiveGood + 1 >= thresholds.stillFrames { return nil }
        if trackedInARow >= thresholds.maxTrackedFrames { return nil }
        guard followableInARow >= 1 else { return nil }
        // A card that moved more than `maxCornerMotion` (the still threshold) between the last two frames is likely
        // still moving, further than the tracked bands reach: looking there first would only add to the search.
        if followableInARow >= 2, let motion = regionMotion, motion > thresholds.maxCornerMotion { return nil }
        return previousRegion
    }

    /// Whether the next frame is searched lightly: after a frame in which even the whole search found nothing (every
    /// fallback: for a card the wider, fourth-side, flipped-edge, pitched and held-card searches; for a face the
    /// dark, small, cut-off, backlit and rolled passes), the next `wholeSearchEvery` − 1 frames get the first search
    /// only (the vote's quads; the first face pass), then one is searched whole again. The fallbacks are most of an
    /// empty frame's cost (a faceless selfie ~180 ms against ~15–50 ms with a face; a camsim frame without a card
    /// ~6.4 ms against ~3.3 ms for the first search), and a stream pays that on every frame until the user shows the
    /// card or the face. A light search finds exactly what the whole one does whenever its first search succeeds
    /// (the fallbacks run only when it does not), so only a card or face that the fallbacks alone would find waits,
    /// for at most that many frames, told NO_DOCUMENT or NO_FACE meanwhile, never GOOD. A frame repeated gives the
    /// same first answer, since what the whole search found makes the next frame's count 0.
    public func searchesLightly(thresholds: AnalysisThresholds) -> Bool {
        emptyInARow >= 1 && emptyInARow < thresholds.wholeSearchEvery
    }

    /// The feedback to send for `analysis` after `update(with:thresholds:)` returned `captured`: the engine's, except
    /// that a GOOD frame whose document moved since the previous one is HOLD_STEADY (with the motion and its
    /// threshold). Documents only: HOLD_STEADY is not a selfie code (a selfie that moves between frames restarts the
    /// still run, and its motion blur is BLURRY). CaptureService and `kycctl analyze --sequence` answer the same way.
    public func feedback(for analysis: FrameAnalysis, captured: Bool, thresholds: AnalysisThresholds) -> [Feedback] {
        guard !captured, analysis.mode == .document, analysis.primary == .good, waitingFeedback == .holdSteady else {
            return analysis.feedback
        }
        return [Feedback(code: .holdSteady, value: regionMotion, threshold: thresholds.maxCornerMotion)]
    }

    /// What to tell the user while waiting: HOLD_STEADY when the frame is GOOD but the document moved since the
    /// previous frame, nil otherwise.
    public var waitingFeedback: FeedbackCode? {
        movedWhileGood ? .holdSteady : nil
    }

    private mutating func reset() {
        consecutiveGood = 0
        captured = false
        movedWhileGood = false
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
