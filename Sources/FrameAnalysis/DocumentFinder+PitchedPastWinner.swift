// A card pitched far in a portrait frame, searched for past a winner not seen whole (docs/capture.md, "A card
// pitched far, past a winner the frame does not hold whole").
//
// A card pitched far from the camera in a portrait frame has the sides across the pitch converge, to a point inside
// the frame (`vanishesInFrame`). The frame-wide quad search builds no such outline: opposite sides crossing in the
// frame are a wedge of texture far more often than a card, so only the pitched search, run when nothing was
// accepted, builds them. But where the card's own outline is not built, an outline of its sides with a background
// line can be accepted in its place: two of its sides run on past its far side to a line beyond the frame's edge,
// or a side crossing the card replaced by a desk's edge closed by the frame. That winner is not seen whole (a frame
// border, or a corner past the frame's edge), and the answer was CUT_OFF for a card in full view (camsim small 153
// `tilted_0007`: a card pitched 47° on a wood desk, its right side replaced by a grain line running out of the frame
// by a few pixels, 0.88; the card's own outline scores 0.93 with its sides meeting 160 px past its far side).
import Foundation

extension DocumentFinder {
    /// The card pitched far under `winner` (an accepted winner not seen whole, in a portrait frame, not in a window),
    /// or nil: the pitched search's best outline (`bestQuad(pitched:)`, among the lines already read) when it is seen
    /// whole, more confident than `winner`, turned far from square-on as a pitched card is (`minPitchedSkew`) and
    /// foreshortened as a card is, not narrowed to a wedge (`oppositeSidesAlike`).
    func pitchedCardPast(_ winner: Searched, image: GrayImage, width w: Int, height h: Int) -> Searched? {
        guard searchesPitchedPastWinnersNotSeenWhole, window == nil, portrait(width: w, height: h),
              !seenWhole(winner.winner, width: w, height: h),
              let pitched = bestQuad(image, width: w, height: h, pitched: true),
              pitched.confidence > winner.confidence, seenWhole(pitched.winner, width: w, height: h),
              pitched.quad.skewDegrees >= Self.minPitchedSkew, Self.oppositeSidesAlike(pitched.quad) else { return nil }
        return pitched
    }

    /// Whether each side of `quad` is at least `minFarSideShare` of the side opposite it: a card's far side
    /// foreshortened, not a wedge (an outline with one side a few pixels long: two lines meeting near a corner of
    /// the card the frame cuts, closed by a short line across them, portrait 5 `cut_off_0008`, 0.69 for a card's
    /// part at 0.64, TILTED instead of CUT_OFF).
    static func oppositeSidesAlike(_ quad: Quadrilateral) -> Bool {
        let c = quad.corners
        func length(_ i: Int) -> Double {
            let d = c[(i + 1) & 3] - c[i]
            return (d * d).sum().squareRoot()
        }
        let l0 = length(0), l1 = length(1), l2 = length(2), l3 = length(3)
        return min(l0, l2) >= minFarSideShare * max(l0, l2) && min(l1, l3) >= minFarSideShare * max(l1, l3)
    }
}
