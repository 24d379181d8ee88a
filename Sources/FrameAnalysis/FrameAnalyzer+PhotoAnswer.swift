// An answer found on the card's photo: the card's size judged from the photo's (docs/capture.md, "Feedback codes",
// "A card's photo taken for the card").
//
// The holder's portrait is a crisp printed rectangle, and when the card itself fills the frame (held too close) its
// outline runs out of the frame or along its edges while the photo's stays whole: the photo wins the search, and its
// small outline was told MOVE_CLOSER, the opposite of what the user must do (camsim 2 `move_away_0005`, portrait 109
// `move_away_0005`: a card over most of the frame, MOVE_CLOSER on its photo). A portrait holds a face that fills it,
// which no card's outline does (the face on a card is about a quarter of its width), so a face found filling a small
// portrait-shaped outline says the outline is a photo; the card around it is then about `IDCard.photoShareOfHeight`
// times taller than the photo.
import COpenCVBridge
import Foundation

extension FrameAnalyzer {
    /// The longest a photo-shaped outline is for its width (an ID-1 card seen square-on is 1.586; printed portraits
    /// are 1.25-1.35).
    static let maxPhotoAnswerAspect = 1.45
    /// The narrowest face (share of the outline's shorter side) that counts as filling it.
    static let minFaceShareOfPhoto = 0.35

    /// The fill (of the largest card held across that fits the frame, as `fill` is) of the card whose photo `quad`
    /// is (working pixels; `inputQuad` is the same outline in the `inputSize` frame's pixels), when a face at least
    /// `minFaceShareOfPhoto` of its shorter side wide lies centred in it (the face search's detector, on the
    /// outline's box of the working image); nil when none does. The photo's longer side runs across the card, and the
    /// card is `IDCard.photoShareOfHeight` times taller.
    func cardFillImpliedByPhoto(_ quad: Quadrilateral, inputQuad: Quadrilateral,
                                inputSize: (width: Int, height: Int)) -> Double? {
        let (even, odd) = Quadrilateral.meanOppositeSides(quad.corners)
        let shorter = min(even, odd), longer = max(even, odd)
        guard shorter >= Double(FaceSearch.cascadeWindow) else { return nil }
        // (Without the cascades, no photo is told apart: the answer stays the outline's.)
        guard let search = try? loadedFaceSearch() else { return nil }
        let (lo, hi) = quad.corners.bounds
        let x0 = Int(lo.x), y0 = Int(lo.y)
        let box = (x: x0, y: y0, width: Int(hi.x.rounded(.up)) - x0, height: Int(hi.y.rounded(.up)) - y0)
        let faces = search.detector.detect(search: working, eyes: working, region: box,
                                           minFace: max(FaceSearch.cascadeWindow,
                                                        Int(Self.minFaceShareOfPhoto * shorter)),
                                           maxFace: Int(longer))
        func centre(_ face: kyc_face) -> SIMD2<Double> {
            let x = Double(face.x) + Double(face.width) / 2
            let y = Double(face.y) + Double(face.height) / 2
            return SIMD2(x, y)
        }
        guard faces.contains(where: { quad.contains(centre($0)) }) else { return nil }
        let (inputEven, inputOdd) = Quadrilateral.meanOppositeSides(inputQuad.corners)
        let cardHeight = max(inputEven, inputOdd) / IDCard.photoShareOfHeight
        let largest = IDCard.largestArea(width: inputSize.width, height: inputSize.height, longSideHorizontal: true)
        return IDCard.aspect * cardHeight * cardHeight / largest
    }
}
