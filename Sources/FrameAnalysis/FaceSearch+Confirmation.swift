// The selfie face search's last word before GOOD: a second person near the user's own face size, looked for with
// another cascade (docs/capture.md, "Selfie faces").
import COpenCVBridge

extension FaceSearch {
    /// The face sizes the confirming pass looks for, relative to the main face's width.
    static let confirmedSizes = 0.6...1.05
    /// Its ratio between the face sizes tried.
    static let confirmingStep = 1.1

    /// Confirming pass: a second person of about the user's own face size (`confirmedSizes`) that the default cascade
    /// did not see, found with the detector's other cascade (`FaceDetector.Cascade.confirming`, opencv-data's
    /// `alt2`), on `detection` and in its coordinates (`faces`: the faces found on it, largest first). Purpose: a
    /// frame is about to be judged GOOD, and may be captured; the first and second-person passes search with the
    /// default cascade at a coarse step, and a second face turned 10–13° away or rolled a few degrees can fall
    /// between its sizes (camsim selfie seeds 2 and 4: second faces of 0.75 and 0.82 × the user's, clear and lit,
    /// found only at a 1.05 step; both frames judged GOOD). Measured over these sizes on 350 frames with a face
    /// (framegen and camsim selfie seeds 1–5 and 9; 70 second faces), with the label's main face: the default
    /// cascade at 1.2 found 66 of 70, at 1.1 67, at 1.05 all 70 but with hits off any face in 8 frames and three
    /// times the cost; `alt2` at 1.1 found 69 (70 on the working image, for the same cost: the smallest window sets
    /// it) with hits off a face in 2 frames. A hit counts only with an eye (the eye cascades run on each, on the
    /// working image): it is one cascade's word against the other's, on a frame about to be captured. Cost: ~9 ms
    /// on one core per 720p frame that would otherwise be GOOD and was searched whole (a tracked frame is not).
    /// `boxes`: every box the faces were found in (`Found.boxes`; `faces` when not given).
    func unseenPersons(besides faces: [kyc_face], boxes: [kyc_face]? = nil, detection: GrayImage,
                       working: GrayImage) -> [kyc_face] {
        guard let main = faces.first else { return [] }
        let width = Double(main.width)
        let smallest = max(Double(Self.cascadeWindow), Self.confirmedSizes.lowerBound * width)
        let largest = Self.confirmedSizes.upperBound * width
        guard smallest < largest else { return [] }
        let hits = detector.detect(search: detection, eyes: working, minFace: Int(smallest),
                                   maxFace: Int(largest.rounded(.up)), scaleStep: Self.confirmingStep, minNeighbors: 2,
                                   cascade: .confirming)
        return Self.newFaces(hits.filter { $0.eyes > 0 }, searchScale: 1, besides: boxes ?? faces)
    }
}
