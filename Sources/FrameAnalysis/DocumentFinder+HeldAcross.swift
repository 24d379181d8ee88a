// Whether an outline may be a card held across the frame: the test the searches run after the frame-wide search
// found nothing (at the detection scale, in a printed window, in colour) put to what they find (docs/capture.md,
// "A card turned far away, square-ish in the frame").
//
// Those searches refuse an upright outline: the rectangle in a card that looks most like a card is its holder's
// photo, upright, and a card is held across for the camera. But a card turned far from the camera foreshortens the
// side that runs away from it, until its outline is square-ish and either pair of sides can look the longer; which
// pair is the card's long one can no longer be told from the lengths, and an outline like that is refused or taken
// by a coin toss. Seen so far off square, it is no photo seen square-on.
import Foundation

extension DocumentFinder {
    /// Under this aspect (the mean long side over the mean short side) an outline turned far from square-on (a corner
    /// `minPitchedSkew` off square, as the pitched search's winner must be) has no long side to tell
    /// (`heldAcross`): a card turned that far foreshortens its long side toward its short one. Still under the 1.29
    /// of a holder's photo (35 × 45 mm) seen square-on. (At `squareishAspect`, portrait 113 `tilted_0004`, 37° off
    /// square and 1.24 long in colour, stayed refused: NO_DOCUMENT; up to 1.3 at 15° an empty scene's outline passed.)
    static let unorientedAspect = 1.25

    /// Whether `quad` may be a card held across the frame: its longer pair of sides nearer the horizontal, or (with
    /// `takesTurnedAwaySquaresAsHeldAcross`) square-ish (`unorientedAspect`) and turned far from square-on, its long
    /// side not told apart.
    func heldAcross(_ quad: Quadrilateral) -> Bool {
        quad.longSideHorizontal
            || (takesTurnedAwaySquaresAsHeldAcross && quad.aspect < Self.unorientedAspect
                && quad.skewDegrees >= Self.minPitchedSkew)
    }
}
