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
    /// Under this aspect (the mean long side over the mean short side) an outline is square-ish: `bestQuad`'s square
    /// parts, and the turned-away outlines `heldAcross` cannot orient.
    static let squareishAspect = 1.2
    /// The least deviation of an outline's worst corner from square (degrees) with which a square-ish outline is a card
    /// turned far away (`turnedAwaySkew`'s 20°, as the pitched search reads it).
    static let turnedAwayDegrees = asin(turnedAwaySkew) * 180 / .pi

    /// Whether `quad` may be a card held across the frame: its longer pair of sides nearer the horizontal, or (with
    /// `takesTurnedAwaySquaresAsHeldAcross`) square-ish and turned far from square-on, its long side not told apart.
    func heldAcross(_ quad: Quadrilateral) -> Bool {
        quad.longSideHorizontal
            || (takesTurnedAwaySquaresAsHeldAcross && quad.aspect < Self.squareishAspect
                && quad.skewDegrees >= Self.turnedAwayDegrees)
    }
}
