// The chroma search: the card looked for in the frame's colour contrast (`ChromaContrast`) when the luma search
// found none, for a card whose sides are colour edges at the brightness of its background.

extension DocumentFinder {
    /// The card found in `chroma` (the detection image's size), with its corners on the detection image, or nil.
    /// Only the vote's quads are searched (no fallbacks: they exist for weak luma evidence, and each adds chances for
    /// colour clutter; with them, +2 frames of 1 550 for twice the cost), and an outline is taken only when it is as
    /// strong as a luma one must be and:
    /// - printed inside in luma (`interiorTexture` reads `luma` here: a card's text and photo are luma detail, a
    ///   coloured plain object's inside is not, and a card's inside can be one flat colour);
    /// - held across (long side nearer horizontal, or square-ish and turned far away: `heldAcross`): the colour
    ///   region inside a card that looks most like one is the holder's photo, an upright rectangle, and a card is
    ///   held across for the camera;
    /// - with a plainer ring around it (`ringTexture` at most `maxRingTexture` of the inside's, the ring clipped to the
    ///   frame): a card lies on, or is held before, a background that is plain next to print, while every panel, band
    ///   or photo inside a card is surrounded by the card's print. A ring whose edges run one way (a wood's grain, a
    ///   fabric's weave, stripes: `ringTexture`'s coherence at least `PrintedRegions.maxCoherence`, which a printed
    ///   region's cell must stay under) is no print however dense, and passes (`acceptsGrainAround`).
    /// An outline closed by a frame border (a card cut off, or too close) is taken too: these rules, not the border,
    /// keep the colour edges of walls, furniture and hands out (camsim: no false outline on a frame without a card
    /// either way, and seven cut-off or too-close cards found with it).
    func findInChroma(_ chroma: GrayImage, luma: GrayImage, acceptance: Double) -> Found? {
        guard chroma.width == luma.width, chroma.height == luma.height else { return nil }
        readsPrint(on: luma)
        defer { printSource = nil }
        guard let found = find(coarse: chroma, working: chroma, acceptance: acceptance,
                               widerSearchMaxLuma: .infinity, fallbacks: false),
              found.confidence >= acceptance, acceptedInColour(found, luma: luma) else { return nil }
        return found
    }

    /// In a stream, the card the previous frame found in colour (`previous`, corners on the detection image), found
    /// again around it in `chroma` (`track`, with the print judged in luma) and held to `findInChroma`'s rules; nil
    /// sends the frame to the full search. Luma tracking would fail on such a card every frame (its sides are what
    /// luma cannot see), and the frame would pay the full luma search, every fallback and the chroma search.
    func trackInChroma(_ previous: Quadrilateral, chroma: GrayImage, luma: GrayImage, acceptance: Double) -> Found? {
        guard chroma.width == luma.width, chroma.height == luma.height else { return nil }
        readsPrint(on: luma)
        defer { printSource = nil }
        var gradientsComputed = false
        guard let found = track(previous, coarse: chroma, working: chroma, acceptance: acceptance,
                                gradientsComputed: &gradientsComputed),
              acceptedInColour(found, luma: luma) else { return nil }
        return found
    }

    /// Points the print reads (`interiorTexture`, `ringTexture`) at the luma image `luma`, or at its noise-matched
    /// image when the frame needs one (`NoiseMatchedPrintImage`), as the luma searches read print: a small frame's
    /// sensor noise otherwise reads as print inside a plain wall's colour outline (camsim small 172
    /// `no_document_0002`: a grey-blue wall above a yellow one, closed by two frame borders, CUT_OFF).
    private func readsPrint(on luma: GrayImage) {
        if let matched = noiseMatchedPrint?.prepared(for: luma) {
            printSource = (matched.image, matched.gradients)
        } else {
            lumaGradients.compute(luma)
            printSource = (luma, lumaGradients)
        }
    }

    /// `findInChroma`'s rules past the confidence: held across, printed inside in luma, plainer around.
    private func acceptedInColour(_ found: Found, luma: GrayImage) -> Bool {
        guard heldAcross(found.quad) else { return false }
        let corners = found.quad.corners
        let texture = interiorTexture((corners[0], corners[1], corners[2], corners[3]), in: luma)
        guard texture >= Self.minInteriorTexture else { return false }
        let ring = ringTexture(corners, in: luma)
        return ring.share <= Self.maxRingTexture * texture
            || (acceptsGrainAround && ring.coherence >= PrintedRegions.maxCoherence)
    }

    /// See `findInChroma`.
    static let maxRingTexture = 0.5

    /// Share of a ring just outside the quad (between it scaled by 1.08 and by 1.35 about its centre, within the
    /// frame, every other row and column) whose luma gradient is at least the weak edge threshold (`lumaGradients`
    /// must hold the image's), and the coherence of those edges' directions (the structure tensor's
    /// (λ1 − λ2) / (λ1 + λ2): 0 for directions spread every way, as print's are, 1 for one direction, as a grain's
    /// or stripes' are). Rows are read as `Quadrilateral.span`s of the two outlines.
    func ringTexture(_ corners: QuadCorners, in image: GrayImage) -> (share: Double, coherence: Double) {
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        return Self.edgeTexture(inside: Quadrilateral(corners: corners.mapValues { centre + ($0 - centre) * 1.35 }),
                                outside: Quadrilateral(corners: corners.mapValues { centre + ($0 - centre) * 1.08 }),
                                gradients: printSource?.gradients ?? lumaGradients, width: image.width,
                                height: image.height)
    }

    /// Share of the samples inside `outer` and outside `hole` (every other row and column, within the image, not its
    /// outermost rows and columns, whose gradients are not computed) whose gradient magnitude in `gradients` is at
    /// least its weak edge threshold, and the coherence of those edges' directions (the structure tensor's
    /// (λ1 − λ2) / (λ1 + λ2): 0 for directions spread every way, as print's are, 1 for one direction, as a grain's
    /// or stripes' are). Rows are read as `Quadrilateral.span`s of the two outlines.
    static func edgeTexture(inside outer: Quadrilateral, outside hole: Quadrilateral, gradients: SobelGradients,
                            width w: Int, height h: Int) -> (share: Double, coherence: Double) {
        let rows = outer.boundingRows
        let mp = gradients.magnitude.baseAddress!, weak = UInt16(gradients.weakThreshold)
        let gxp = gradients.gx.baseAddress!, gyp = gradients.gy.baseAddress!
        var inRing = 0, textured = 0
        var xx = 0.0, yy = 0.0, xy = 0.0
        for y in stride(from: max(1, rows.lo), to: min(h - 1, rows.hi), by: 2) {
            let (lo, hi) = outer.span(row: y, width: w - 1), hole = hole.span(row: y, width: w - 1)
            for x in stride(from: max(1, lo), to: hi, by: 2) where x < hole.lo || x >= hole.hi {
                inRing += 1
                let i = y * w + x
                guard mp[i] >= weak else { continue }
                textured += 1
                let gx = Double(gxp[i]), gy = Double(gyp[i])
                xx += gx * gx
                yy += gy * gy
                xy += gx * gy
            }
        }
        let coherence = ((xx - yy) * (xx - yy) + 4 * xy * xy).squareRoot() / max(1, xx + yy)
        return (inRing == 0 ? 0 : Double(textured) / Double(inRing), coherence)
    }
}
