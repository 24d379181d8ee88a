/// The accuracy bar on frames from tools/camsim, a generator built independently of tools/framegen (which
/// the engine is tuned on): the issue says the engine will be judged on frames from a generator it has never seen.
/// Never tune on this seed (1); tune on others (`python3 tools/camsim/camsim.py --seed 2 …`) and check here.
/// Its checks run in `CamsimDocumentAccuracyTests`.
enum CamsimAccuracy {
    /// Classes still below the bar on camsim (issue #5 stays open until this is empty), with the accuracy each must
    /// not fall below. The list can only shrink: a class that meets the bar while listed fails the test.
    /// Floors have fallen once, with evidence: the wider second line search (2026-11-30) took this seed from 75 to
    /// 85 of 100 but CUT_OFF from 90 to 70 % (two frames: one had been right by taking a window for the card) and the
    /// corner error from 0.037 to 0.041 (more cards found, some with a wrong quad); on a fresh seed (4, 20 per
    /// class, never tuned on) the same change took CUT_OFF from 65 to 75 % and the total from 147 to 160 of 200.
    /// MOVE_CLOSER's and CUT_OFF's floors rose to 0.8 and 0.9 with the chroma search (2026-12-01: cards at their
    /// background's brightness found in colour; 89 -> 91 of 100); MOVE_CLOSER's to 0.9 when every border-closed
    /// winner was searched past for a card seen whole (2026-12-01; 91 -> 92). BLURRY met the bar when a smeared
    /// scene's BLURRY went before its outline's findings (2026-12-01, session 11, ADR 13; 92 -> 93), TOO_BRIGHT when
    /// a frame without a card clipped over more than `overexposedFraction` said TOO_BRIGHT first (session 11; 94).
    /// MOVE_CLOSER met the bar when a frame where no search found a card was searched in the windows around its
    /// printed regions (session 26; a small card on a cluttered desk, 94 -> 95). GLARE met the bar when a glare patch
    /// of 3 % of the card went before the findings on its outline (session 33, `FrameAnalyzer.glareOverOutlineShare`;
    /// 95 -> 96). MOVE_AWAY 0.8 -> 0.9 when a small answer inside print reaching the frame's edge was searched for the
    /// card holding it (session 41, `FrameAnalyzer.searchesPrintAroundSmallAnswers`; 96 -> 97). MOVE_AWAY met the bar
    /// when a frame where no card's outline was found was told MOVE_AWAY for a card's portrait seen large in it
    /// (session 43, `FrameAnalyzer.readsLargePortraitsWithoutOutline`; 97 -> 98).
    static let knownBelowBar: [String: Double] = [
        "document GOOD": 0.9, "document CUT_OFF": 0.9,
    ]
    /// The mean corner error camsim has reached and must stay under (above the bar it is a known issue). 0.041 until session 6, when cut-off cards held by the end that leaves the frame were
    /// found with their true outline (0.0408 -> 0.0372); 0.030 since every border-closed winner is searched past
    /// (2026-12-01: a window pane and a stripe band taken for cards, 0.0367 -> 0.0291); 0.026 when a band missing
    /// from a quad seen square-on was looked for (2026-12-01: cards without their header or MRZ band, 0.0291 ->
    /// 0.0244). None since the criterion counts only frames with the whole document in view, as its comment always
    /// said (2026-12-01: nine MOVE_AWAY cards running past the frame, whose corners no outline in the frame can
    /// reach, had been counted): 0.0160 over 53 frames, at the bar, which is then required; 0.018 recorded so that
    /// the set cannot slide back to the bar unnoticed.
    static let recordedCornerError: Double? = 0.018

    static let bar = AccuracyBar(setName: "camsim", frames: GeneratedFrames.camsimSet, mode: "document",
                                 classCount: 10, knownBelowBar: knownBelowBar,
                                 recordedCornerError: recordedCornerError)
}
