// Lane 7 of a line's profile (the samples whose edge lies in a field of stripes, `StripeField`), filled only for the
// lines whose run to a frame border is judged: `evaluate`'s border-side support and `reachesBorder` are its only
// readers, and most profiled lines never meet a border in any outline. Filled on first use, it is the count the
// profile pass would have kept: the same samples (those lane 1 counts) at the same positions.

/// The lazily filled stripe lane of the candidate lines' profiles (see `DocumentFinder.LineTable.striped`).
struct StripeLane {
    /// Per line, whether lane 7 of its profile holds its stripe counts (reset when the line is profiled again).
    let filled: UnsafeMutablePointer<Bool>
    /// The image the lines were profiled on, with its gradients.
    let image: StripeField.Image

    /// Fills lane 7 of `row` (a line's prefix sums, `origin` the index of t = 0) over t in `range`: a running count
    /// of the samples with an edge (lane 1 steps up) that `StripeField` places in a field of stripes.
    func fill(_ row: UnsafeMutablePointer<SIMD8<Float>>, origin: Int, line: DocumentFinder.Line,
              range: (lo: Int, hi: Int)) {
        guard range.lo <= range.hi else { return }
        let n = line.normal, d = SIMD2(-n.y, n.x)
        let start = n * line.rho
        let field = StripeField(image: image, normal: n)
        var striped: Float = 0
        row[range.lo + origin][7] = 0
        for t in range.lo...range.hi {
            if row[t + 1 + origin][1] > row[t + origin][1] && field.contains(start + d * Double(t)) { striped += 1 }
            row[t + 1 + origin][7] = striped
        }
    }
}
