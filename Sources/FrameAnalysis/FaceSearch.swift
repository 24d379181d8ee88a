// The selfie face search: the Haar cascade passes that look for the user's face, and the search for a second person
// beside it. `FrameAnalyzer.analyzeSelfie` measures and judges what this finds.
import COpenCVBridge

/// Finds the faces of a selfie frame in passes. The first pass is the only one a frame with a face at a selfie's
/// distance pays for; each later pass looks for a face the earlier ones could not see and runs only when they found
/// nothing, so it costs only frames without a face (the user is told NO_FACE on those either way). Each pass is a
/// method of its own so that it can be tested alone. One search per analyzer (not Sendable): it reuses its buffers.
final class FaceSearch {
    /// Faces, largest first, and the image whose pixels their boxes are in.
    struct Found {
        var faces: [kyc_face]
        /// Every box the faces were found in: the faces' own and the boxes of the same faces that were not kept
        /// (`withoutRepeats`). A later hit centred inside one of them is one of these faces again.
        var boxes: [kyc_face]
        /// The detection image or the working image (the small-face pass).
        var searched: GrayImage
    }

    /// The cascade's native window: the smallest face it can find in the image it searches.
    static let cascadeWindow = 24
    /// The first pass's ratio between the face sizes it tries.
    static let firstPassStep = 1.2

    let thresholds: AnalysisThresholds
    let detector: FaceDetector
    /// The detection image inside a border of its own edge pixels (`paddedPass`, `measuredBeyondTheEdge` in its own
    /// file, hence not private).
    let padded = GrayImage()
    /// The working image inside a border of its own edge pixels as wide, at its scale, as `padded`'s: where
    /// `paddedPass` counts its hits' eyes (`searchPadded`).
    let paddedWorking = GrayImage()
    /// Whether `paddedPass` counts eyes on `paddedWorking` (tests turn it off to count them on `padded`, as before).
    var paddedEyesOnWorking = true
    /// The working image and its half-size copy turned against a head's roll (`rolledPass`, in its own file, hence
    /// not private; nor is `detector`).
    let turnedWorking = GrayImage()
    let turnedDetection = GrayImage()
    /// A small face's part of the frame and its copy enlarged twice (`enlargedEyes`, in its own file).
    let eyesPart = GrayImage()
    let enlargedPart = GrayImage()
    /// Whether the small-face passes keep only hits that show an eye (`showingEyes`); tests turn it off to see the
    /// texture hits it drops.
    var smallFacesMustShowEyes = true
    /// Whether a face near the frame's edge is measured again beyond it (`measuredBeyondTheEdge`); tests turn it off
    /// to see the box the frame cut.
    var measuresBeyondTheEdge = true
    private let spans = RegionSpans()

    /// Loads the cascades (tens of milliseconds): throws when opencv-data is missing.
    init(thresholds: AnalysisThresholds) throws(FrameAnalysisError) {
        self.thresholds = thresholds
        detector = try FaceDetector()
    }

    /// The smallest face the first pass looks for in `detection`: 13 % of the short side (the cascade's 24 px window
    /// at 720p). A selfie's face should be at least `minFaceSize` (22 %), and a second person at least 40 % of the
    /// main face's width. Smaller faces are the small-face pass's. Most of a search's cost is in its smallest sizes
    /// (the most windows).
    static func firstPassSmallest(detection: GrayImage) -> Int {
        max(cascadeWindow, Int(Double(min(detection.width, detection.height)) * 0.13))
    }

    /// The user's face (and any other the first pass sees), through the passes in order until one finds a face:
    /// first, brightened (dark frames), small-face, padded (lit frames), locally equalised, rolled, rolled small.
    /// The three last were added for faces camsim's selfies showed missed (a dark face before a window, a head rolled
    /// 10-20°, a far head rolled so); the locally equalised pass goes before the rolled one because it found more of
    /// them (6 faces against 4 on camsim selfie seeds 1-4) for about the same cost. `working` is the working image
    /// and `detection` its half-size copy (or `working` itself for small frames); `sceneBrightness` is
    /// `detection`'s mean luma.
    /// `firstPassOnly`: in a stream where no face was found lately (`CaptureTracker.searchesLightly`), only
    /// the first pass runs.
    func mainFaces(detection: GrayImage, working: GrayImage, sceneBrightness: Double,
                   firstPassOnly: Bool = false) -> Found {
        let t = thresholds
        var found = firstPass(detection: detection, working: working)
        var searched = detection
        if firstPassOnly { return measuredBeyondTheEdge(Self.found(found, searched: searched), detection: detection) }
        if found.isEmpty && sceneBrightness < t.minBrightness {
            found = brightenedPass(detection: detection, working: working)
        }
        if found.isEmpty && detection !== working {
            found = smallFacePass(detection: detection, working: working)
            searched = working
        }
        if found.isEmpty && detection !== working && sceneBrightness >= t.minBrightness {
            found = paddedPass(detection: detection, working: working)
            searched = detection
        }
        if found.isEmpty {
            found = locallyEqualizedPass(detection: detection, working: working)
            searched = detection
        }
        if found.isEmpty {
            found = rolledPass(detection: detection, working: working)
            searched = detection
        }
        if found.isEmpty && detection !== working {
            found = rolledSmallFacePass(detection: detection, working: working)
            searched = working
        }
        return measuredBeyondTheEdge(Self.found(found, searched: searched), detection: detection)
    }

    /// `hits` (largest first) as found faces: each face once (`withoutRepeats`), and every hit as a box a face was
    /// found in (each hit is a face kept or a repeat of one).
    static func found(_ hits: [kyc_face], searched: GrayImage) -> Found {
        Found(faces: withoutRepeats(hits), boxes: hits, searched: searched)
    }

    /// `faces` (largest first) with each face once: a hit whose centre lies inside a larger face's box is that face
    /// again. The cascade's grouping merges only hits of similar size and place, so one face can come back as two
    /// overlapping boxes of different sizes (camsim selfie seed 4, a dark frame: 288 and 256 px boxes of one face,
    /// told MULTIPLE_FACES). A second person's face cannot be centred inside the user's: the user's head would hide
    /// it. Of the boxes of one face, the one the cascade scored higher is kept: the larger box of such a pair is
    /// usually the face with its hair and neck, which the cascade scores lower than the face (camsim selfie seed 84:
    /// 103 and 68 px boxes scoring 2.2 and 5.2, the face 64 px wide, told FACE_TOO_LARGE for a face of a normal
    /// size; seed 3: 76 and 66 px scoring 0.9 and 7.3). The larger box still takes in the hits centred inside it.
    /// The result is largest first (the first is the user's face), boxes of equal area in their order in `faces`.
    static func withoutRepeats(_ faces: [kyc_face]) -> [kyc_face] {
        var kept: [kyc_face] = [], covering: [kyc_face] = []
        for face in faces {
            if let group = covering.firstIndex(where: { isRepeat(face, of: [$0]) }) {
                if face.score > kept[group].score { kept[group] = face }
                continue
            }
            kept.append(face)
            covering.append(face)
        }
        return kept.enumerated().sorted { a, b in
            let areaA = Int(a.element.width) * Int(a.element.height)
            let areaB = Int(b.element.width) * Int(b.element.height)
            return areaA != areaB ? areaA > areaB : a.offset < b.offset
        }.map(\.element)
    }

    /// Whether `face`'s centre lies inside one of `faces`' boxes: that face again (see `withoutRepeats`).
    static func isRepeat(_ face: kyc_face, of faces: [kyc_face]) -> Bool {
        let cx = face.x + face.width / 2, cy = face.y + face.height / 2
        return faces.contains { cx >= $0.x && cx < $0.x + $0.width && cy >= $0.y && cy < $0.y + $0.height }
    }

    /// First pass: faces from `firstPassSmallest` up on the detection image. Purpose: every face of a usable selfie
    /// and a second person of 40 % of its width or more. Cost: the one pass every frame pays, most of a selfie's CPU.
    /// Face sizes 1.2 apart, three overlapping hits: faces of the sizes this pass looks for still collect them, at
    /// about half the cost of a 1.1 step (measured: every selfie class of the accuracy set and of another seed
    /// still found; four hits at this step lost the second face of two-person frames).
    func firstPass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        plausibleFaces(in: detector.detect(search: detection, eyes: working,
                                           minFace: Self.firstPassSmallest(detection: detection),
                                           scaleStep: Self.firstPassStep,
                                           minNeighbors: 3),
                       searched: detection, working: working)
    }

    /// Brightened pass: the first pass's sizes again on the histogram-equalised detection image. Purpose: in a frame
    /// the user would be told is too dark, a face spans a few dozen grey levels and the cascade misses it. Only
    /// then: equalising a well-exposed frame turns background texture into faces, and it can hide a small lit face
    /// in a dim room, so it is a fallback. Cost: about twice the first pass (a finer 1.1 step), on dark frames
    /// without a face only. It runs before the small-face pass: in the dark a face of a normal size is the likelier
    /// miss, and it costs less.
    func brightenedPass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        plausibleFaces(in: detector.detect(search: detection, eyes: working,
                                           minFace: Self.firstPassSmallest(detection: detection), levels: .equalized),
                       searched: detection, working: working)
    }

    /// Small-face pass: faces too small for the detection image (a far-away user, FACE_TOO_SMALL), from the
    /// cascade's window up to a little above the first pass's smallest size, on the working image, in its
    /// coordinates. Cost: the dearest pass (the smallest windows over four times the pixels), on frames without a
    /// face only. So sizes are tried 1.2 apart; the faces then collect fewer overlapping hits, and two are enough
    /// (four at this step lost a tenth of the small faces; three still lost some, and found texture faces that two
    /// did not, measured on the accuracy set and another seed). A hit counts when it shows an eye, on the working
    /// image or on its part enlarged twice (`enlargedEyes`): the texture two hits let through has none (camsim
    /// selfie seeds 1 and 2: faceless frames told FACE_TOO_SMALL; framegen seed 11: a second small "face" beside the
    /// user's, MULTIPLE_FACES), while every small face found on camsim selfie seeds 1–4, 48, 49 and framegen seeds
    /// 20250501, 7, 11 showed one.
    func smallFacePass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        let firstPassSmallest = Self.firstPassSmallest(detection: detection) * working.width / max(detection.width, 1)
        return showingEyes(detector.detect(search: working, eyes: working, minFace: Self.cascadeWindow,
                                           maxFace: firstPassSmallest * 5 / 4, scaleStep: 1.2, minNeighbors: 2),
                           in: working)
    }

    /// Padded pass: the first pass on the detection image inside a border of its own edge pixels (a quarter of the
    /// short side), in the detection image's coordinates. Purpose: a face the frame's edge cuts (a user off to one
    /// side, or too close) leaves the cascade's window no room to fit around it; a face found here keeps the part of
    /// its box beyond the frame (it is FACE_NOT_CENTERED or FACE_TOO_LARGE). Only hits with an eye count: the
    /// smeared border is texture. Cost: about 2.3 times the first pass's pixels, on frames without a face only, and
    /// not on dark frames (the caller's scene brightness below `minBrightness`).
    func paddedPass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        searchPadded(detection: detection, eyesOn: paddedEyesOnWorking ? working : nil,
                     minFace: Self.firstPassSmallest(detection: detection), scaleStep: 1.2, minNeighbors: 3)
            .filter { $0.eyes > 0 }
    }

    /// The cascade's hits on the detection image inside a border of its own edge pixels (a quarter of its short
    /// side, `padded`), in the detection image's coordinates (a box may reach past the frame). Their eyes are counted
    /// on `working` padded the same way (`paddedWorking`, as pass 1 counts them on the working image; on the padded
    /// detection image a ~60 px face's eyes are under the eye cascade's window), or on `padded` when `working` is nil.
    /// Shared by `paddedPass` and `measuredBeyondTheEdge`.
    func searchPadded(detection: GrayImage, eyesOn working: GrayImage?, minFace: Int, maxFace: Int = 0,
                      scaleStep: Double, minNeighbors: Int) -> [kyc_face] {
        let border = min(detection.width, detection.height) / 4
        padded.pad(from: detection, border: border)
        var eyes = padded
        if let working, working !== detection {
            let scale = Double(working.width) / Double(detection.width)
            paddedWorking.pad(from: working, border: Int((Double(border) * scale).rounded()))
            eyes = paddedWorking
        }
        return detector.detect(search: padded, eyes: eyes, minFace: minFace, maxFace: maxFace, scaleStep: scaleStep,
                               minNeighbors: minNeighbors).map { hit in
            var face = hit
            face.x -= Int32(border)
            face.y -= Int32(border)
            return face
        }
    }

    /// Locally equalised pass: the brightened pass's search on the detection image equalised tile by tile (CLAHE).
    /// Purpose: a dark face before a bright background (a window behind the user). The brightened pass runs only
    /// when the whole frame is dark, and its whole-image equalisation gives most grey levels to the bright
    /// background; tile by tile, the face's own levels are spread. It also finds faces the first pass missed for
    /// weak contrast (shading, a slight roll). It runs on every frame where the earlier passes found nothing, not
    /// only on frames with large bright areas: on camsim selfie seeds 1-4 it found three non-backlit faces as well,
    /// and on the 79 NO_FACE frames of framegen seeds 20250501, 7 and 11 and camsim seeds 1-5 it found no face (the
    /// `plausibleFaces` rule still asks a lit face of a selfie's size for an eye). Cost: about twice the first pass
    /// (a 1.1 step; the first pass's 1.2 step with three hits lost every backlit face it found), on frames without
    /// a face only.
    func locallyEqualizedPass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        plausibleFaces(in: detector.detect(search: detection, eyes: working,
                                           minFace: Self.firstPassSmallest(detection: detection),
                                           levels: .locallyEqualized),
                       searched: detection, working: working)
    }

    /// Second-person pass: people beside `faces` (found on `detection`, largest first) that the first pass could not
    /// see, in `detection`'s coordinates. A second face counts from 40 % of the main face's width (MULTIPLE_FACES),
    /// but the first pass sees no face under its smallest size (~13 % of the short side) and finds those up to about
    /// twice that unreliably (few overlapping hits at its coarse step): on camsim selfies 8 of 15 second faces under
    /// 22 % of the short side were missed, and each such frame was judged GOOD. Those sizes are searched again on the
    /// working image (the same step on the half-size image, or a finer one, found fewer and cost as much). A hit
    /// inside a face already found is that face again. A hit counts when it shows an eye, or, in a frame fit to
    /// judge (`acceptingEyeless`: the main face neither BLURRY nor TOO_DARK), when it is at least the first pass's
    /// smallest size: a second face that small has eyes below the eye cascade's reach (camsim selfie seed 4: two
    /// eyeless second faces of 14 and 16 %), while the eyeless hits that were texture (6 on framegen and camsim
    /// selfies) were in blurred or dark frames or under 11 % of the short side. A frame that is BLURRY or TOO_DARK is
    /// never captured, so the second person is still caught once the frame is fit. Cost: about a third more CPU per
    /// selfie with a face (it is the only pass besides the first that such a frame pays for). `boxes`: every box the
    /// faces were found in (`Found.boxes`; `faces` when not given).
    func secondPersons(besides faces: [kyc_face], boxes: [kyc_face]? = nil, detection: GrayImage, working: GrayImage,
                       acceptingEyeless: Bool) -> [kyc_face] {
        guard let main = faces.first else { return [] }
        let toWorking = Double(working.width) / Double(max(detection.width, 1))
        let firstPassSmallest = Double(Self.firstPassSmallest(detection: detection)) * toWorking
        let smallest = max(Double(Self.cascadeWindow), 0.4 * Double(main.width) * toWorking)
        let largest = min(2 * firstPassSmallest, Double(main.width) * toWorking)
        guard smallest < largest else { return [] }
        let hits = detector.detect(search: working, eyes: working, minFace: Int(smallest),
                                   maxFace: Int(largest.rounded(.up)), scaleStep: 1.2, minNeighbors: 2)
        return Self.newFaces(hits.filter { $0.eyes > 0 || (acceptingEyeless && Double($0.width) >= firstPassSmallest) },
                             searchScale: toWorking, besides: boxes ?? faces)
    }

    /// `hits` (on an image `searchScale` times the detection image's size) in detection coordinates, without those
    /// whose centre lies inside a face already known (`faces`: the boxes they were found in) or added before them:
    /// that face again.
    static func newFaces(_ hits: [kyc_face], searchScale: Double, besides faces: [kyc_face]) -> [kyc_face] {
        var known = faces, added: [kyc_face] = []
        for hit in hits {
            var face = hit
            face.x = Int32((Double(hit.x) / searchScale).rounded())
            face.y = Int32((Double(hit.y) / searchScale).rounded())
            face.width = Int32((Double(hit.width) / searchScale).rounded())
            face.height = Int32((Double(hit.height) / searchScale).rounded())
            if isRepeat(face, of: known) { continue }
            known.append(face)
            added.append(face)
        }
        return added
    }

    /// The cascade's hits that can be faces. A face of a usable selfie's size (at least `minFaceSize` of the short
    /// side) that is lit well enough to judge (its mean luma at least `minBrightness`) shows at least one eye to the
    /// eye cascades (the second one sees eyes behind glasses); a hit that size without one is texture the face
    /// cascade mistook for a face (measured on framegen seeds 7 and 11: every such hit was a wall or a fabric, every
    /// real face of that size had an eye). Smaller hits keep their place: their eyes are too small to find, and they
    /// are FACE_TOO_SMALL anyway; dark ones too: their eyes are lost in the dark, and the user is told TOO_DARK.
    func plausibleFaces(in hits: [kyc_face], searched: GrayImage, working: GrayImage) -> [kyc_face] {
        let t = thresholds
        let toWorking = Double(working.width) / Double(max(searched.width, 1))
        let minEyedWidth = t.minFaceSize * Double(min(working.width, working.height))
        return hits.filter { hit in
            guard hit.eyes == 0, Double(hit.width) * toWorking >= minEyedWidth else { return true }
            let x0 = Double(hit.x) * toWorking, y0 = Double(hit.y) * toWorking
            let x1 = Double(hit.x + hit.width) * toWorking, y1 = Double(hit.y + hit.height) * toWorking
            spans.set(for: working, quad: Quadrilateral(corners: QuadCorners(SIMD2(x0, y0), SIMD2(x1, y0),
                                                                              SIMD2(x1, y1), SIMD2(x0, y1))))
            return FrameMeasurements.exposure(working, spans: spans, step: 2).mean < t.minBrightness
        }
    }
}
