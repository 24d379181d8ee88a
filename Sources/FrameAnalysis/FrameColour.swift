// One frame's colour, read only when the document search needs it (docs/capture.md, "Colour edges"): the chroma
// planes of a JPEG (decoded again, or with the luma: a card followed in colour, a progressive JPEG) or of an
// NV12/NV21 frame, turned upright with the luma, and their colour contrast at the detection size
// (`ChromaContrast`), made at most once per frame.

/// Reuses its buffers between frames: one per analyzer (not Sendable).
final class FrameColour {
    /// The colour contrast image (the detection image's size) once `contrast` has returned true for this frame.
    let contrastImage = GrayImage()

    private var input: FrameInput?
    private var orientation = FrameOrientation.upright
    /// The chroma planes upright, and as decoded or sampled when they must be turned upright first.
    private let cb = GrayImage(), cr = GrayImage()
    private let storedCb = GrayImage(), storedCr = GrayImage()
    private let projection = ChromaContrast()
    /// The planes were decoded with the luma (`decodeWithLuma`); the contrast image made (or found impossible).
    private var planesDecoded = false
    private enum ContrastState { case notMade, made, unavailable }
    private var contrastState = ContrastState.notMade

    /// Starts a frame: nothing of the previous frame's colour is used again. `planesDecoded`: this frame's chroma
    /// came with its luma (`decodeWithLuma` returned a size).
    func begin(_ input: FrameInput, orientation: FrameOrientation, planesDecoded: Bool) {
        self.input = input
        self.orientation = orientation
        self.planesDecoded = planesDecoded
        contrastState = .notMade
    }

    /// Decodes a JPEG's luma into `luma` (exactly as `JPEGGrayDecoder.decode` would) and its chroma planes in the same
    /// decode; nil, decoding nothing, for a JPEG without chroma. Then `begin` the frame with the same orientation.
    func decodeWithLuma(_ jpeg: [UInt8], into luma: GrayImage, orientation: FrameOrientation,
                        decoder: JPEGGrayDecoder, longSide: Int,
                        maxPixels: Int) throws(FrameAnalysisError) -> (width: Int, height: Int)? {
        let upright = orientation == .upright
        return try decoder.decodeChroma(jpeg, luma: luma, cb: upright ? cb : storedCb, cr: upright ? cr : storedCr,
                                        longSide: longSide, maxPixels: maxPixels)
    }

    /// Makes `contrastImage` for this frame at `width × height` (once per frame: a second decode of a JPEG's chroma
    /// unless it came with the luma, or a raw frame's chroma plane, turned upright, projected); false for a frame
    /// without colour to search (a grayscale JPEG, a gray8 frame, a grey scene).
    func contrast(width: Int, height: Int, decoder: JPEGGrayDecoder, longSide: Int, maxPixels: Int) -> Bool {
        switch contrastState {
        case .made: return true
        case .unavailable: return false
        case .notMade: break
        }
        contrastState = .unavailable
        guard let input else { return false }
        let upright = orientation == .upright
        let decodedCb = upright ? cb : storedCb, decodedCr = upright ? cr : storedCr
        switch input {
        case .jpeg(let bytes):
            guard planesDecoded
                || (try? decoder.decodeChroma(bytes, cb: decodedCb, cr: decodedCr, longSide: longSide,
                                              maxPixels: maxPixels)) != nil else { return false }
        case .raw(let bytes, let frameWidth, let frameHeight, let stride, let format, _):
            guard RawFrameSampler.sampleChroma(bytes: bytes, width: frameWidth, height: frameHeight, stride: stride,
                                               format: format, cb: decodedCb, cr: decodedCr,
                                               longSide: longSide) else { return false }
        }
        if !upright {
            cb.setUpright(from: storedCb, orientation: orientation)
            cr.setUpright(from: storedCr, orientation: orientation)
        }
        guard projection.project(cb: cb, cr: cr, into: contrastImage, width: width, height: height) else {
            return false
        }
        contrastState = .made
        return true
    }
}
