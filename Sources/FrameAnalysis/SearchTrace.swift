// The document search's steps on one frame, for engine developers (`kycctl analyze --trace`, docs/capture.md,
// "Tracing the document search"): which search found the outline a frame was answered on, and what it replaced.

/// One step of the document search: an outline a search found or took, named after the search (`find.first`: the
/// frame-wide quad search's first winner; `locate.stopsShort`: the card found inside an outline whose sides stop
/// short; a step inside a printed region's window is prefixed `window.`), its corners in the input frame's pixels
/// (the upright frame's, as the answer's region), its confidence and whether a frame border closes it.
public struct SearchStep: Sendable, Equatable, Encodable {
    public var step: String
    public var corners: [FramePoint]
    public var confidence: Double
    public var borderClosed: Bool
}

/// Collects `SearchStep`s while a frame is analysed with `FrameAnalyzer.tracesSearch`. The searches record outlines
/// on the image they search (`coarse`: the detection image or a window's; `working`: the working image or a window's
/// crop of it), and the trace maps them to the input frame with the transforms the analyzer set for that image.
/// Nil (the default) costs nothing: every record is an optional call whose arguments are not evaluated.
final class SearchTrace {
    /// Input pixel = (image pixel + ½) × scale + offset − ½ (scaled about pixel centres, as `Quadrilateral.scaled`;
    /// the offset is a window's origin in input pixels).
    typealias Transform = (scale: SIMD2<Double>, offset: SIMD2<Double>)

    /// What the search being run records under: a name prefix (`window.` while a printed region's window is
    /// searched) and the maps from its coarse and working images to the input frame. A search run apart changes it
    /// for its duration (`FrameAnalyzer.tracing`).
    struct Context {
        var prefix = ""
        var coarseToInput: Transform = (SIMD2(1, 1), .zero)
        var workingToInput: Transform = (SIMD2(1, 1), .zero)
    }

    private(set) var steps: [SearchStep] = []
    var context = Context()

    /// Starts a frame: no steps, the frame-wide search's context.
    func reset(_ context: Context) {
        steps.removeAll()
        self.context = context
    }

    /// Records `quad` (on the coarse image searched).
    func coarse(_ step: String, _ quad: Quadrilateral, confidence: Double, borderClosed: Bool) {
        append(step, quad, context.coarseToInput, confidence, borderClosed)
    }

    /// Records `quad` (on the working image searched).
    func working(_ step: String, _ quad: Quadrilateral, confidence: Double, borderClosed: Bool) {
        append(step, quad, context.workingToInput, confidence, borderClosed)
    }

    private func append(_ step: String, _ quad: Quadrilateral, _ transform: Transform, _ confidence: Double,
                        _ borderClosed: Bool) {
        let corners = quad.corners.map { p -> FramePoint in
            let q = (p + 0.5) * transform.scale + transform.offset - 0.5
            return FramePoint(x: q.x, y: q.y)
        }
        steps.append(SearchStep(step: context.prefix + step, corners: corners, confidence: confidence,
                                borderClosed: borderClosed))
    }
}

extension SearchTrace {
    /// Records a quad search's result (on the coarse image), when there is one.
    func coarse(_ step: String, _ searched: DocumentFinder.Searched?) {
        guard let searched else { return }
        coarse(step, searched.quad, confidence: searched.confidence, borderClosed: searched.borders.contains(true))
    }

    /// Records a finding on the working image, when there is one.
    func working(_ step: String, _ found: DocumentFinder.Found?) {
        guard let found else { return }
        working(step, found.quad, confidence: found.confidence, borderClosed: found.borderClosed)
    }
}
