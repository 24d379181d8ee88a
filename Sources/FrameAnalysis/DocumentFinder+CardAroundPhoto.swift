// The card around a winning outline that is only the card's photo, looked for where the card's sides must lie
// (docs/capture.md, "Document quad", "Card around its photo").
//
// `container` takes the card around a photo-like winner from the lines the vote already gave; but the vote's budget
// is where a card's sides are lost first (a light card on a light wall, a thumb over a side, a direction crowded by
// the card's own print lines), while the photo's frame, a crisp printed rectangle, keeps its lines. A card's sides
// run along its photo's (the print is laid out on the card), so each lies in a band beyond one of the photo's sides,
// of that side's direction: there it competes only with the band's few lines. The bands' best lines are added and
// the container is looked for again, under its own gates.
import Foundation

extension DocumentFinder {
    /// The card around `photo` (a winning quad on `image`, whose gradients `coarseGradients` hold) found among the
    /// lines of the bands where its sides must lie, or nil: when `photo` is not photo-like (`mayBePhoto`, seen whole,
    /// at most `maxPhotoFill` of the frame), when the bands add no line, or when no outline around it passes. Around
    /// a winner longer than a photo but a card's part (`maxCutPartAspect`), only the cut card (`cutCardAround`).
    func cardAroundPhoto(_ photo: RankedQuad, image: GrayImage) -> RankedQuad? {
        let w = image.width, h = image.height
        let c = QuadCorners(photo.corners)
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        let long = max(even, odd), short = max(1, min(even, odd))
        guard Quadrilateral(corners: c).area <= Self.maxPhotoFill * Double(w * h),
              seenWhole(photo, width: w, height: h) else { return nil }
        // Longer than a photo, the winner may still be a part of a card the frame cuts (the photo with the print
        // beside it, closed by a line across the card; the card without its header band): only the cut card is
        // looked for around it, among the lines already read.
        guard Self.mayBePhoto(photo) else {
            guard takesCutCardsAroundLongerParts, Self.mayBePhoto(photo, maxAspect: Self.maxCutPartAspect) else {
                return nil
            }
            return cutCardAround(photo, image: image)
        }
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        var added = false
        for s in 0..<4 {
            let a = c[s], b = c[(s + 1) & 3]
            let along = b - a
            let length = (along * along).sum().squareRoot()
            guard length >= 4 else { continue }
            let u = along / length
            var n = SIMD2(-u.y, u.x)
            if (((a + b) / 2 - centre) * n).sum() < 0 { n = -n }
            // Beyond a long side of the photo lies one of the card's short sides: near it, or a card's length away
            // (the photo at the card's other end). Beyond a short side lies one of the card's long sides, at most
            // the photo's length away (the photo spans at least 0.35 of the card's height: `container`), and it runs
            // on past the photo's ends.
            let isLongSide = (s % 2 == 0) == (even >= odd)
            let far = isLongSide ? Self.photoToCardEnd * long : Self.photoToCardSide * long
            let extend = isLongSide ? 0.3 * long : short
            let start = a - u * extend, end = b + u * extend
            bandSearch.search(coarseGradients, width: w, height: h,
                              band: (start + n * 2, end + n * 2, end + n * far, start + n * far),
                              reference: n, count: Self.photoBandLines)
            for found in bandSearch.found where (found.normal * n).sum().magnitude >= Self.photoAlignedCosine
                && adopt(Line(normal: found.normal, rho: found.rho), image) {
                added = true
            }
        }
        guard added, let card = container(of: photo, image: image, width: w, height: h, quarters: false,
                                          confidenceShare: Self.photoBandContainerShare),
              seenWhole(card, width: w, height: h) else { return cutCardAround(photo, image: image) }
        // Seen square-on, the card around a photo is no longer than a whole card: a longer one lacks a band, one of
        // its sides a line across the card that the lenient gates let pass. Its band is looked for as `find` looks
        // for a winner's; not found there, the card is not taken (camsim 108 `tilted_0000`: a card turned 49° away,
        // the winner its part right of a thumb, whose container, closed on a line across the photo, was 2.0 long and
        // GOOD).
        guard refusesLongCardsAroundPhotos, Self.longSeenSquareOn(card) else { return card }
        guard let completed = completeBand(card, image: image, searching: true),
              !Self.longSeenSquareOn(completed) else { return nil }
        return completed
    }

    /// The card the frame cuts around `photo` (a photo-like winner seen whole, around which no whole card was found),
    /// or nil. A card leaving the frame, or held too close, shows its photo whole while its own outline is closed by
    /// the frame's border, and its photo, a crisp printed rectangle, wins the search: the answer was MOVE_CLOSER on
    /// the photo. Its outline is looked for among the lines the searches read (the bands' too) as `container` looks
    /// for a whole card's, closed by a frame border and measured only across (`container`'s `cut`), and taken only
    /// when it is more confident than the photo and printed beside it as a card's face is: text lines, not a desk or a
    /// window around a whole card taken for a photo (`printedBesidePhoto`). Not in a window of the frame
    /// (`searchesWindow`): a window's edges close no card.
    func cutCardAround(_ photo: RankedQuad, image: GrayImage) -> RankedQuad? {
        guard takesCutCardsAroundPhotos, !searchesWindow,
              let card = container(of: photo, image: image, width: image.width, height: image.height, quarters: false,
                                   cut: true),
              card.confidence > photo.confidence, printedBesidePhoto(photo, in: card, image: image) else { return nil }
        return card
    }

    /// Whether the part of `card` beside `photo` (inside the card shrunk by a tenth about its centre, outside the photo
    /// grown by 15 % about its own) is printed as a card's face is: at least `minPrintBesidePhoto` of it on an edge,
    /// those edges running every way (coherence under `PrintedRegions.maxCoherence`; a grain's or stripes' run one
    /// way). Read on the image the print is judged on (`printSource`, as `interiorTexture` does).
    func printedBesidePhoto(_ photo: RankedQuad, in card: RankedQuad, image: GrayImage) -> Bool {
        let k = QuadCorners(card.corners)
        let p = QuadCorners(photo.corners)
        let kc = (k[0] + k[1] + k[2] + k[3]) / 4, pc = (p[0] + p[1] + p[2] + p[3]) / 4
        let source = printSource?.image ?? image
        let beside = Self.edgeTexture(inside: Quadrilateral(corners: k.mapValues { kc + ($0 - kc) * 0.9 }),
                                      outside: Quadrilateral(corners: p.mapValues { pc + ($0 - pc) * 1.15 }),
                                      gradients: printSource?.gradients ?? coarseGradients,
                                      width: source.width, height: source.height)
        return beside.share >= minPrintBesidePhoto && beside.coherence < PrintedRegions.maxCoherence
    }

    /// Whether `quad` is seen nearly square-on as the band search takes it (`maxSquareOnSkew`: on the coarse image,
    /// where an outline's corners are a few degrees less certain than refined) and longer than a whole card can
    /// measure so (`IDCard.longestSquareOnWholeAspect`).
    static func longSeenSquareOn(_ quad: RankedQuad) -> Bool {
        let q = Quadrilateral(corners: QuadCorners(quad.corners))
        return q.skewDegrees <= maxSquareOnSkew && q.aspect > IDCard.longestSquareOnWholeAspect
    }
}
