// The searches a document frame runs when no card was accepted, in their order (`FrameAnalyzer.locateDocument`).

extension FrameAnalyzer {
    /// The searches that run, in this order, while a frame has no accepted card: after the frame-wide search, and
    /// again after its answer was given up for a repeating inside. Each has its own gates (`locateDocument`).
    enum NothingFoundSearch: CaseIterable {
        /// The card in the frame's colour contrast (`findInColour`).
        case inColour
        /// The frame-wide search with the vote on the detection image, taken only as a small card seen whole.
        case atDetectionScale
        /// The windows around the frame's printed regions clear of its edges.
        case inPrintedRegions
        /// The windows around printed regions that reach the frame's edge: a card the frame cuts.
        case atPrintedFrameEdge
        /// The accepted border-closed outline the held-card search passed over (`DocumentFinder.heldAtBorder`).
        case heldAtBorder

        /// Whether its answer was found in a window of the frame (the analysis's `printedRegion` metric).
        var isInWindow: Bool { self == .inPrintedRegions || self == .atPrintedFrameEdge }
    }
}
