// The physical shape the document detector and the fill measure are built around: an ISO/IEC 7810 ID-1 card.

/// ID-1 (credit-card sized) identity documents: 85.60 × 53.98 mm.
enum IDCard {
    /// Long side / short side.
    static let aspect = 85.60 / 53.98

    /// The holder's portrait's height as a share of the card's (its short side): ID-1 identity cards and driving
    /// licences print it some 30-38 mm tall on the 54 mm card; the middle of that range. Used only to judge the size
    /// of a card whose photo alone was found (`FrameAnalyzer.cardFillImpliedByPhoto`).
    static let photoShareOfHeight = 0.6
    /// The smallest share of a document's height its portrait takes among the documents a user may hold up: a
    /// passport's data page (ID-3, 88 mm tall) prints it 32-45 mm tall (ICAO Doc 9303), up to about half its height.
    /// Used only where a larger document is the safer guess (`FrameAnalyzer.judgesCutPhotoCardsAtTheirLargest`).
    static let smallestPhotoShareOfHeight = 0.5

    /// Long side / short side of a quad beyond which it is not a whole document: foreshortening by a tilt the skew
    /// test lets pass lengthens a card's quad up to about 1.95 (measured); longer, a band of the document along a
    /// long side is not in the quad (DocumentFinder looks for it; FrameAnalyzer does not call such a card whole).
    static let longestQuadAspect = aspect * 1.25

    /// The largest deviation of a quad's corners from square (degrees) with which the analyzer counts it as seen
    /// square-on, and the long side / short side beyond which such a quad is not a whole card: its fill is then
    /// judged by its long sides, and before it is called GOOD the band it lacks must fit the frame on either side
    /// (`FrameAnalyzer.hiddenPartMargin`). Measured (2026-12-02, camsim seeds 2–4, 19, 20 and portrait 7, 21, 22 with
    /// every card's corners in the frame): of the outlines found at a skew below 10°, the 554 within 1 % of the
    /// diagonal of the true corners measure at most 1.72; 49 longer than 1.68 are further off (most of them a card
    /// with a band along a long side left out). (Not the finder's square-on pair, `DocumentFinder.maxSquareOnSkew`
    /// and `longestSquareOnAspect`, which only decide where the finder looks for a missing band; these decide an
    /// answer, so they sit just past every right outline measured.)
    static let squareOnSkew = 10.0
    static let longestSquareOnWholeAspect = aspect * 1.1

    /// Long side / short side beyond which a quad seen nearly square-on (corners within
    /// `DocumentFinder.maxSquareOnSkew` of square) is longer than an ID-1 card by more than the outline's error: a
    /// band of the card along a long side may not be in it (DocumentFinder looks for it).
    static let longestSquareOnAspect = aspect * 1.06

    /// Long side / short side of the squarest identity document: ID-2 (105 × 74 mm) and ID-3 (passport data page,
    /// 125 × 88 mm), both 1.42.
    static let squarestAspect = 125.0 / 88.0

    /// Long side / short side of a quad below which it is not a whole document: squarer than an ID-2 or ID-3 page by
    /// more than a skew the skew test lets pass and the outline's measurement can make it (passport pages judged GOOD
    /// on the camsim sets measured 1.36–1.40), so part of the document along its long axis is not in the quad (a
    /// line across the card, a thumb's edge or a band of its print closing it).
    static let squarestQuadAspect = squarestAspect / 1.08

    /// Long side / short side beyond which a quad is not a document with one band unseen but a part of one, which
    /// no placement of the unseen part can make whole: the band it would lack would be over a third of the card's
    /// height (1.5 × ID-1), taller than any band an identity card carries (the TD1 MRZ, the tallest, is about
    /// 17 mm of 54). A line across the card (a photo's edge, a print panel's) closes such an outline.
    static let longestWithHiddenBandAspect = aspect * 1.5

    /// Long side / short side below which a quad is not a document with part of its length unseen but a part of one:
    /// squarer than ID-2 / ID-3 by 15 % (a thumb's edge or a line across the card closing it), while ID-3 pages
    /// judged GOOD measured 1.36 and more.
    static let squarestWithHiddenPartAspect = squarestAspect / 1.15

    /// Whether `quad` has a whole card's shape seen nearly square-on: within `squareOnSkew` of square, between
    /// `squarestQuadAspect` and `longestSquareOnWholeAspect` long.
    static func wholeSeenSquareOn(_ quad: Quadrilateral) -> Bool {
        quad.skewDegrees <= squareOnSkew && quad.aspect >= squarestQuadAspect && quad.aspect <= longestSquareOnWholeAspect
    }

    /// Area (pixels²) of the largest ID-1 card held the same way (long side across or upright) that fits a
    /// `width × height` frame. Fill is judged against it because a card can never cover a frame of another aspect
    /// ratio, and a card held across a portrait frame can grow only until it spans the frame's width: the user
    /// moves closer, they do not turn the card.
    static func largestArea(width: Int, height: Int, longSideHorizontal: Bool) -> Double {
        let along = Double(longSideHorizontal ? width : height), across = Double(longSideHorizontal ? height : width)
        let cardLong = min(along, across * aspect)
        return max(cardLong * cardLong / aspect, 1)
    }

    /// The least area (pixels²) of a document one of whose straight edges is seen `length` long: no edge of a
    /// document is longer than its long side, and ID-1 is the most elongated identity document (ID-3 is 1.42).
    static func leastArea(seenEdge length: Double) -> Double {
        length * length / aspect
    }
}
