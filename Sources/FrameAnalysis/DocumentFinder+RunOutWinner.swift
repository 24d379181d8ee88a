// DocumentFinder: a winner whose corner lies past the frame's edge, and the card seen whole that shares its sides.
import Foundation

extension DocumentFinder {
    /// How far past the frame's edge (a share of its short side) a winner's corner must lie for the winner to be
    /// one that runs out of the frame (`cardSeenWholeUnder`). A card at the frame's edge grazes it: camsim 85
    /// `move_away_0007`, a card larger than the frame, had its corner 0.02 past it, and a card seen whole sharing two
    /// of its sides (its print closed by them) took its place at 0.02, NO_DOCUMENT. At 0.03 and 0.05 alike the
    /// tuning sets lose nothing; 0.05 leaves out one frame that 0.03 gains (portrait 92 `tilted_0007`).
    static let runOutMargin = 0.03
    /// The least share of a run-out winner's score an outline seen whole must keep to replace it
    /// (`cardSeenWholeUnder`). At 0.85 and 0.8 no more frames move on the tuning sets; at 0.8 a held-out
    /// `move_away` card is traded for an outline inside it.
    static let runOutScoreShare = 0.9

    /// Whether `quad`'s corner lies more than `runOutMargin` of the short side past the `w` × `h` frame's edge.
    static func runsOutOfFrame(_ quad: Corners, width w: Int, height h: Int) -> Bool {
        !Quadrilateral.liesInside(quad.0, quad.1, quad.2, quad.3, width: w, height: h,
                                  margin: runOutMargin * Double(min(w, h)))
    }

    /// The card seen whole under `winner`, a printed winner that runs out of the frame (`runsOutOfFrame`) with no
    /// frame border among its sides, or nil. Such a winner is read only along the parts of its sides in view: the
    /// stretch of a side beyond the frame costs it nothing. So a card's own sides, run on past one of its corners to
    /// a background line that crosses them beyond the frame's edge (a desk's edge, a shadow, a mat), outscore the
    /// card's outline, whose fourth side is its own: a card turned away on a desk, TILTED, answered CUT_OFF (camsim
    /// 110 `tilted_0002`: 0.89 for the run-out outline, 0.84 for the card). Among the first `quadsVerified` of
    /// `ranked`, the first outline seen whole (`seenWhole`) that has at least two of the winner's lines among its
    /// sides, keeps `runOutScoreShare` of its score and is printed as a card's face (`minInteriorTexture`, not
    /// repeating) is the card. Not in a window of the frame, whose edges are not the frame's. Measured in
    /// docs/capture.md ("A winner running out of the frame").
    func cardSeenWholeUnder(runOut winner: RankedQuad, among ranked: [RankedQuad], image: GrayImage,
                            width w: Int, height h: Int) -> RankedQuad? {
        guard window == nil, Self.runsOutOfFrame(winner.corners, width: w, height: h) else { return nil }
        for k in 0..<4 where lines[winner.sides[k]].border { return nil }
        for candidate in ranked.prefix(Self.quadsVerified)
        where candidate.score >= Self.runOutScoreShare * winner.score && seenWhole(candidate, width: w, height: h) {
            var shared = 0
            for k in 0..<4 where (0..<4).contains(where: { winner.sides[$0] == candidate.sides[k] }) { shared += 1 }
            if shared >= 2, printedInside(candidate.corners, atLeast: Self.minInteriorTexture, image: image) != nil {
                return candidate
            }
        }
        return nil
    }
}
