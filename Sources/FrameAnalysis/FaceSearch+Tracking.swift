// The selfie face search in a stream: the user's face looked for where the previous frame had it (docs/capture.md,
// "Streams").
import COpenCVBridge

extension FaceSearch {
    /// How far around the previous face box the face is looked for, as a share of its width on each side: a user
    /// holding a phone moves the face less than that between two frames.
    static let trackingMargin = 0.5
    /// The face sizes looked for, relative to the previous face's width.
    static let trackedSizes = 0.8...1.25

    /// Tracked pass: the one face of the previous frame (`previous`: its box on `detection`, x0, y0, x1, y1), looked
    /// for only around that box and at about its size, at the first pass's face sizes, step and hits. Purpose: a
    /// selfie stream's frames cost less than a whole search (the box and its margin are a small part of the frame,
    /// at a few face sizes). The face found must show an eye, be the only face there and have moved less than the
    /// margin; otherwise nil, and the frame is searched whole. A face the frame cut (its box past the frame's edge:
    /// the padded pass's) is not tracked. Its box can differ from the first pass's by a few pixels (the cascade's
    /// windows fall elsewhere in a region), so a measure right at a threshold can flip (measured: one frame of 720,
    /// faceSize 0.556 alone, 0.550 tracked). A tracked frame does not look for a second person elsewhere in the frame:
    /// `CaptureTracker.hint` has the frame that may be captured, every frame after `maxTrackedFrames` tracked ones
    /// and every frame after one with more than one face searched whole.
    func trackedFace(previous: (x0: Double, y0: Double, x1: Double, y1: Double), detection: GrayImage,
                     working: GrayImage) -> kyc_face? {
        let width = previous.x1 - previous.x0, height = previous.y1 - previous.y0
        guard width.isFinite, height.isFinite, width >= Double(Self.cascadeWindow), height > 0,
              previous.x0 >= 0, previous.y0 >= 0, previous.x1 <= Double(detection.width),
              previous.y1 <= Double(detection.height) else { return nil }
        let margin = Self.trackingMargin * width
        let x0 = Int((previous.x0 - margin).rounded(.down)), y0 = Int((previous.y0 - margin).rounded(.down))
        let x1 = Int((previous.x1 + margin).rounded(.up)), y1 = Int((previous.y1 + margin).rounded(.up))
        // The first pass's sizes (its smallest times powers of its step) from just below the previous width, so a
        // face still where it was is tried at the sizes the first pass tried it at.
        var smallest = Double(Self.firstPassSmallest(detection: detection))
        while smallest * Self.firstPassStep <= width * Self.trackedSizes.lowerBound { smallest *= Self.firstPassStep }
        let hits = plausibleFaces(in: detector.detect(search: detection, eyes: working,
                                                      region: (x0, y0, x1 - x0, y1 - y0), minFace: Int(smallest),
                                                      maxFace: Int((width * Self.trackedSizes.upperBound).rounded(.up)),
                                                      scaleStep: Self.firstPassStep, minNeighbors: 3),
                                  searched: detection, working: working)
        guard hits.count == 1, let face = hits.first, face.eyes > 0 else { return nil }
        let dx = Double(face.x) + Double(face.width) / 2 - (previous.x0 + previous.x1) / 2
        let dy = Double(face.y) + Double(face.height) / 2 - (previous.y0 + previous.y1) / 2
        guard abs(dx) <= margin, abs(dy) <= margin else { return nil }
        return face
    }
}
