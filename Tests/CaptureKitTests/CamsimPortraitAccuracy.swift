/// The accuracy bar on camsim frames in portrait (720x1280, 1080x1920): phones stream frames upright, and a
/// card held across a portrait frame is small in it, so fill, detection and sharpness all meet other numbers there
/// than in the landscape sets. Seed 6, never tuned on (the portrait fill rule was found on seed 5).
/// Its checks run in `CamsimDocumentAccuracyTests`.
enum CamsimPortraitAccuracy {
    /// Classes below the bar when this set was added (2026-11-30, 72 of 100 right; 77 once document sharpness was
    /// weighted by the fine rise squared, which raised GOOD and GLARE; 79 once the finder read sides whose edge
    /// flips polarity and searched past border-closed outlines deeper than a card, which raised MOVE_CLOSER and took
    /// TOO_DARK to the bar; 86 once a card at its background's brightness was looked for in colour, which took GOOD
    /// and MOVE_AWAY to the bar and CUT_OFF to 0.9; 87 once a quad side with no visible sample weighed as a frame
    /// border, which took CUT_OFF to the bar; 88 once every border-closed winner was searched past for a card seen
    /// whole, which took GLARE to 0.8; 89 once a quad whose inside repeats was passed over, which took TOO_BRIGHT to
    /// the bar; 90 once a frame where nothing was found was searched again with the vote at the detection scale,
    /// which took MOVE_CLOSER to 0.8), with the accuracy each must not fall below; the list can only shrink (see
    /// `AccuracyEvaluation.expectEveryClassAtTheBar`). GLARE met the bar in session 33, when a glare patch of 3 % of
    /// the card went before the findings on its outline (`FrameAnalyzer.glareOverOutlineShare`; 90 -> 92). TILTED
    /// rose to 0.9 in session 40, when a side's run on to the frame's border stopped counting the edges of a striped
    /// desk along it (`StripeField`; two cards turned away on striped desks, 92 -> 94). TILTED met the bar in session
    /// 52, when a winner not seen whole in a portrait frame was searched past for a card pitched far
    /// (`DocumentFinder.pitchedCardPast`: `tilted_0003`, CUT_OFF on an outline running past the frame; 94 -> 95).
    static let knownBelowBar: [String: Double] = [
        "document NO_DOCUMENT": 0.9, "document MOVE_CLOSER": 0.8, "document BLURRY": 0.8,
    ]
    /// The mean corner error this set has reached and must stay under, above the bar (0.043 when added, 0.033 since
    /// the border-closed outlines deeper than a card are searched past; 0.028 since every border-closed winner is:
    /// 0.0328 -> 0.0262; 0.0254 since a band missing from a quad seen square-on is looked for; 0.029 since the
    /// criterion counts only frames with the whole document in view (2026-12-01): ten MOVE_AWAY frames left out,
    /// whose errors were below the set's mean, so the mean rose to 0.0284 with no answer changed; 0.023 since
    /// 2026-12-04: the outlines found since had brought it to 0.0207, and the search at the detection scale after
    /// nothing was found to 0.0204, just above the bar; recorded with a margin of a tenth so that it cannot slide
    /// back unnoticed. At the bar since session 29 (0.0204 → 0.0182: `glare_0007`'s outline, found across the card's
    /// photo and a window pane's edge, is now the card's, 0.159 → 0.047, still TILTED for GLARE): 0.0195 recorded.
    static let recordedCornerError: Double? = 0.0195

    static let bar = AccuracyBar(setName: "camsim portrait", frames: GeneratedFrames.camsimPortraitSet,
                                 mode: "document", classCount: 10, knownBelowBar: knownBelowBar,
                                 recordedCornerError: recordedCornerError)
}
