/// The accuracy bar on small camsim frames (640x480 landscape, 360x640 portrait), as a phone streams them at
/// low resolution to save bandwidth: no larger than the working size, they are decoded at full size, with the sensor's
/// noise and the JPEG's blocking not averaged away as a scaled decode averages a 720p frame's (the fast IDCT's dark
/// clipped highlights and bare surfaces read as print were found on such frames, session 35). Seed 8, never tuned on
/// (the small-frame rules were found on seeds 152-156).
/// Its checks run in `CamsimDocumentAccuracyTests`.
enum CamsimSmallFrameAccuracy {
    /// Classes below the bar when this set was added (session 35, 87 of 100 right; 86 with session 34's engine), with
    /// the accuracy each must not fall below; the list can only shrink (see
    /// `AccuracyEvaluation.expectEveryClassAtTheBar`).
    static let knownBelowBar: [String: Double] = [
        "document BLURRY": 0.9, "document CUT_OFF": 0.7, "document GLARE": 0.9, "document GOOD": 0.9,
        "document MOVE_CLOSER": 0.8, "document NO_DOCUMENT": 0.8, "document TILTED": 0.8, "document TOO_BRIGHT": 0.9,
    ]

    static let bar = AccuracyBar(setName: "camsim small", frames: GeneratedFrames.camsimSmallSet, mode: "document",
                                 classCount: 10, knownBelowBar: knownBelowBar)
}
