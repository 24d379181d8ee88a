// DocumentFinder, step 4 (set-up): what the quad search knows before it builds a quad — where the active lines
// cross, which of them can be opposite sides, and which lines can be a side between each such pair. A line is a side
// of thousands of candidate quads, and a side between two opposite lines is the same segment in every quad that pair
// makes, so all of it is read once per search.

extension DocumentFinder {
    /// Every crossing of two active lines and the |cos| of their angle (`crossings`, `cosines`, by position in
    /// `active`, NaN where the lines are parallel); per line the lines that cross it steeply enough to be an adjacent
    /// side (`steepMasks`) and those it crosses at a corner the search accepts, a finite crossing inside the box
    /// `lower`…`upper` around the frame (`cornerMasks`). Returns the frame borders among the active lines, as a bit set
    /// (at most maxLines + 8 active lines, within 64).
    func crossActiveLines(lower: SIMD2<Double>, upper: SIMD2<Double>) -> UInt64 {
        let activeCount = active.count
        if activeCount * activeCount > crossings.count {
            crossings.deallocate()
            cosines.deallocate()
            crossings = .allocate(capacity: activeCount * activeCount)
            cosines = .allocate(capacity: activeCount * activeCount)
        }
        let crossing = crossings.baseAddress!, cosine = cosines.baseAddress!
        // Half the table: a crossing and an angle are the same both ways, bit for bit (`intersect(b, a)` negates
        // numerator and denominator exactly; the dot product's two products are the same).
        for ii in 0..<activeCount {
            let a = lines[active[ii]]
            crossing[ii * activeCount + ii] = SIMD2(repeating: .nan)
            cosine[ii * activeCount + ii] = abs((a.normal * a.normal).sum())
            for jj in (ii + 1)..<activeCount {
                let b = lines[active[jj]]
                let x = Self.intersect(a, b) ?? SIMD2(repeating: .nan), c = abs((a.normal * b.normal).sum())
                crossing[ii * activeCount + jj] = x
                crossing[jj * activeCount + ii] = x
                cosine[ii * activeCount + jj] = c
                cosine[jj * activeCount + ii] = c
            }
        }
        let steep = steepMasks.baseAddress!, cornerOK = cornerMasks.baseAddress!
        var borderMask: UInt64 = 0
        for ii in 0..<activeCount {
            if lines[active[ii]].border { borderMask |= 1 << UInt64(ii) }
            var mask: UInt64 = 0, corners: UInt64 = 0
            for jj in 0..<activeCount {
                if cosine[ii * activeCount + jj] <= 0.87 { mask |= 1 << UInt64(jj) }
                let c = crossing[ii * activeCount + jj]
                if !c.x.isNaN && !c.y.isNaN && !any(c .< lower) && !any(c .> upper) { corners |= 1 << UInt64(jj) }
            }
            steep[ii] = mask
            cornerOK[ii] = corners
        }
        return borderMask
    }

    /// The pairs of active lines that can be a card's opposite sides (`pairs`, by position in `active`, in order of
    /// their first line, then their second), and where each line's pairs begin (`pairStarts`). Reads the crossing
    /// tables `crossActiveLines` made. With `pitched`, opposite sides may cross inside the frame beyond the centred
    /// square of its short side (see `vanishesInFrame`).
    func pairOppositeLines(width w: Int, height h: Int, pitched: Bool) {
        let activeCount = active.count
        let crossing = crossings.baseAddress!, cosine = cosines.baseAddress!
        let converging = admitsSteeplyConvergingSides
        pairs.removeAll(keepingCapacity: true)
        let centre = SIMD2(Double(w) / 2, Double(h) / 2), minSeparation = 0.08 * Double(min(w, h))
        for ii in 0..<activeCount {
            for jj in (ii + 1)..<activeCount {
                let i = active[ii], j = active[jj]
                if lines[i].border && lines[j].border { continue }
                // Opposite sides: parallel in the card, converging by up to 60° under strong perspective, or by up
                // to 78° for two lines of the image (`minConvergingCosine`: the quad search then asks more of the
                // other pair).
                let least = converging && !lines[i].border && !lines[j].border
                    ? Self.minConvergingCosine : Self.minOppositeCosine
                guard cosine[ii * activeCount + jj] >= least else { continue }
                // Opposite sides of a card do not cross inside the frame (they would make a wedge, not a card), but
                // for a card pitched far enough in a portrait frame (see `vanishesInFrame`). (NaN, parallel lines,
                // fails every comparison.)
                let x = crossing[ii * activeCount + jj]
                if x.x >= 0, x.y >= 0, x.x < Double(w), x.y < Double(h) {
                    guard pitched, Self.vanishesInFrame(x, width: w, height: h) else { continue }
                }
                // ... and lie well apart: near the frame's centre, at least 8 % of its short side (the smallest card
                // worth finding is about twice that across).
                let onI = centre - lines[i].normal * ((centre * lines[i].normal).sum() - lines[i].rho)
                guard abs((onI * lines[j].normal).sum() - lines[j].rho) >= minSeparation else { continue }
                pairs.append((ii, jj))
            }
        }
        let pairStart = pairStarts.baseAddress!
        var next = 0
        for ii in 0...activeCount {
            while next < pairs.count && pairs[next].0 < ii { next += 1 }
            pairStart[ii] = Int32(next)
        }
    }

    /// Per pair of `pairs`, the lines that can be either side between its two lines (`pairSideMasks`): crossing both
    /// steeply, at accepted corners, and (unless a frame border) with a side there that `evaluate` could keep in some
    /// quad; each such side's visible samples (`pairSideCounts`, by pair and active line); and which of those sides are
    /// weak (`pairWeakSides`: below `sideSupport`, allowed on one side of a quad only) and which are below
    /// `strongSideSupport` (`pairNotStrongSides`: a quad with a weak side needs every other side strong). A quad is
    /// built only from two pairs each of whose lines is in the other's set. (Crossings and |cos| are symmetric, so the
    /// pair's set holds each of its lines' sides with either pair.)
    /// A side between a pair's two lines is the same segment in every quad the pair makes, so `evaluate`'s first pass
    /// over it (its edge support, by quarters with `quarters`, and whether it is a step) is read here once instead of
    /// once per quad. `lineSupport` is `supportBound(quarters:)`'s per-line bound (a cheaper test first).
    func readPairSides(_ table: LineTable, borderMask: UInt64, lineSupport: UnsafeMutablePointer<Double>,
                       quarters: Bool, coveredAtBorder: Bool) {
        let activeCount = active.count, pairCount = pairs.count
        if pairCount > pairSideMasks.count {
            pairSideMasks.deallocate()
            pairWeakSides.deallocate()
            pairNotStrongSides.deallocate()
            pairSideMasks = .allocate(capacity: pairCount)
            pairWeakSides = .allocate(capacity: pairCount)
            pairNotStrongSides = .allocate(capacity: pairCount)
        }
        if pairCount * activeCount > pairSideCounts.count {
            pairSideCounts.deallocate()
            pairSideCounts = .allocate(capacity: pairCount * activeCount)
        }
        let sideCount = pairSideCounts.baseAddress!, sideMask = pairSideMasks.baseAddress!
        let weakSides = pairWeakSides.baseAddress!, notStrongSides = pairNotStrongSides.baseAddress!
        let crossing = crossings.baseAddress!, steep = steepMasks.baseAddress!, cornerOK = cornerMasks.baseAddress!
        let active = self.active
        for p in 0..<pairCount {
            let (pa1, pa2) = pairs[p]
            let row1 = pa1 * activeCount, row2 = pa2 * activeCount
            var sideLines = steep[pa1] & steep[pa2] & cornerOK[pa1] & cornerOK[pa2]
            var unchecked = sideLines & ~borderMask, borderLines = sideLines & borderMask
            while borderLines != 0 {
                sideCount[p * activeCount + borderLines.trailingZeroBitCount] = 0
                borderLines &= borderLines &- 1
            }
            let besideBorder = (borderMask >> UInt64(pa1)) & 1 + (borderMask >> UInt64(pa2)) & 1 > 0
            let support = besideBorder
                ? (coveredAtBorder ? Self.coveredBorderSideSupport : Self.borderSideSupport) : Self.minOccludedSupport
            var weak: UInt64 = 0, notStrong: UInt64 = 0
            while unchecked != 0 {
                let line = unchecked.trailingZeroBitCount
                unchecked &= unchecked &- 1
                let index = active[line], bit: UInt64 = 1 << UInt64(line)
                let (t0, t1) = Self.sideEnds(table, line: index, from: crossing[row1 + line], to: crossing[row2 + line])
                // (Its visible samples are its samples: one per position along the line's sampled part.)
                let sums = table.segment(index, t0, t1), visible = Int(sums[0])
                sideCount[p * activeCount + line] = Int32(visible)
                guard prunesUnsupportedSides else { continue }
                // The samples the weak-side rule reads the side over (`glareForgiven`: those outside a clipped patch,
                // when enough of it lies inside one). Beside no border the bound is on those; beside one the border
                // test reads the side over all of them.
                let judgedSamples = Self.samplesJudged(visible: Double(visible), underGlare: sums[6],
                                                       forgiving: forgivesSidesUnderGlare)
                guard Self.sideCanBeSupported(lineSupport: lineSupport, line: index, minimum: support,
                                              visible: besideBorder ? visible : Int(judgedSamples)) else {
                    sideLines &= ~bit
                    continue
                }
                let side = Self.sideSupport(table, line: index, t0, t1, sums: sums, quarters: quarters)
                guard side.visible > 0 else { continue }
                let judged = Self.support(side.fraction, visible: Double(side.visible), over: judgedSamples)
                if side.visible >= 8 {
                    // (`evaluate` refuses such a side in any quad: no edge along it, no step across it, or too little
                    // edge next to a frame border, where a card's side runs right up to the border.)
                    if judged < Self.minOccludedSupport || !side.isStep
                        || (besideBorder && side.fraction < support) {
                        sideLines &= ~bit
                        continue
                    }
                    if judged < Self.sideSupport { weak |= bit }
                }
                if judged < Self.strongSideSupport { notStrong |= bit }
            }
            sideMask[p] = sideLines
            weakSides[p] = weak
            notStrongSides[p] = notStrong
        }
    }
}
