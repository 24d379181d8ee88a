// A card's portrait seen large around a small answer: the answer is a part of a card held too close, not a card far
// away (docs/capture.md, "Feedback codes", "A card's portrait around a small answer").
//
// Held too close, a card's outline runs out of the frame or along its edges and the quad search settles on a part of
// it seen whole: its photo, or an outline across the photo's hair and shoulders (camsim landscape 112
// `move_away_0003`). Judged by that part's size, the frame was told MOVE_CLOSER, the opposite of what the user must
// do, or CUT_OFF where the part touches the frame's edge (landscape 93 `move_away_0000`). The
// answer on a photo seen whole with a face filling it is judged by the photo's size already
// (`cardFillImpliedByPhoto`); an outline that is not the photo's shape, or one the frame cuts, is not. But a face is
// a card's portrait whatever outline was found around it (`largePortrait(in:)`), and its size bounds the card's: a
// portrait's face is at most 0.22 of its card's height (`minLargePortrait`'s measurements), so a card judged smaller
// than `minFill` (at most 0.42 of a landscape frame's height) shows a face of under 0.10 of the frame's short side.
// A face of `minLargePortrait` (0.14) or more around such an answer belongs to a larger card, as large as a card
// whose portrait says too close where no outline was found: MOVE_AWAY. The face search costs a few times a small
// card's whole analysis, so it runs only around an answer that reads as a part by its shape and print
// (`answerReadsAsAPart`); an outline across a photo inside print no larger than it (landscape 100 `move_away_0009`)
// is not searched.
import Foundation

extension FrameAnalyzer {
    /// Whether the small answer `quad` (working pixels) reads as a part of a larger card by its shape and print, the
    /// evidence the search around small answers reads (`searchesPrintAroundSmallAnswers`): not a whole card's shape
    /// seen square-on (that is the card: a small card seen whole), and inside a printed region whose box is at least
    /// `minPrintOverSmallAnswer` times the answer's (the card's print running on past it). Reads the frame's printed
    /// regions when no search has yet.
    func answerReadsAsAPart(_ quad: Quadrilateral, detection: GrayImage) -> Bool {
        !IDCard.wholeSeenSquareOn(quad) && printRunsOnPast(quad, detection: detection)
    }

    /// Whether the answer `quad` (working pixels) lies inside a printed region whose box is at least
    /// `minPrintOverSmallAnswer` times its own: its card's print running on past it, as a part's does. The print gate
    /// of `answerReadsAsAPart`, and of the photo rule for answers of ordinary size (`cardFillImpliedByPhoto`). Reads
    /// the frame's printed regions when no search has yet.
    func printRunsOnPast(_ quad: Quadrilateral, detection: GrayImage) -> Bool {
        readPrintedRegions(detection: detection)
        let part = printedRegionsBox(of: quad, detection: detection)
        guard part.area > 0 else { return false }
        return printedRegions.regions.contains { printedRegion($0, isWellLargerAround: part) }
    }

    /// How far past the answer's box the face is looked for, as a share of the box's larger extent on every side: an
    /// outline across a photo covers part of its face (camsim landscape 112 `move_away_0003`: the face 0.7 of its
    /// height above the outline's box). Growing by the whole extent found the same faces on the tuning sets and cost
    /// three times as much (framegen's `move_closer_0003_1080p` +9 ms, at half +3 ms).
    static let portraitSearchGrowth = 0.5

    /// The largest face around `quad` (an answer on the working image judged smaller than `minFill`), as a share of
    /// `detection`'s short side, when it is at least `minLargePortrait` and at most `maxLargePortrait`; nil
    /// otherwise, or without the cascades. Searched on the detection image, in the answer's box grown on every side
    /// by `portraitSearchGrowth` of its larger extent, by the portrait search `largePortrait(in:)` runs too
    /// (`largestPortrait(on:)`: every size, glare patches left out; counted in `largePortraitSearches`).
    func largePortrait(around quad: Quadrilateral, detection: GrayImage) -> Double? {
        let toDetection = SIMD2(Double(detection.width) / Double(working.width),
                                Double(detection.height) / Double(working.height))
        let (lo, hi) = quad.corners.mapValues { $0 * toDetection }.bounds
        let grow = Self.portraitSearchGrowth * max(hi.x - lo.x, hi.y - lo.y)
        return largestPortrait(on: detection, x0: max(0, Int(lo.x - grow)), y0: max(0, Int(lo.y - grow)),
                               x1: min(detection.width, Int((hi.x + grow).rounded(.up))),
                               y1: min(detection.height, Int((hi.y + grow).rounded(.up))))
    }
}
