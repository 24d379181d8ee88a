// OpenCV Haar cascades (Debian's opencv-data) through the COpenCVBridge C functions. The cascades are parsed once
// per detector (tens of milliseconds), so a detector lives as long as its analyzer.
import COpenCVBridge

/// Face + eye detection with two face cascades (`Cascade`) sharing the eye cascades. Owns one `kyc_face_detector`;
/// one detector per thread.
final class FaceDetector {
    static let cascadeDirectory = "/usr/share/opencv4/haarcascades"
    /// Lowest cascade score (the last stage's sum; that stage passes from about −3) kept as a face. Faces in
    /// generated frames score 1.3–8 and the background texture that passes every stage −2…0.2: the cut sits in
    /// between, nearer the texture, since a missed face (NO_FACE) is the worse error for a user in front of the camera.
    static let minimumScore = 0.5
    private var detector: OpaquePointer?
    private var faces: [kyc_face]

    /// Which face cascade a search uses.
    enum Cascade {
        /// `haarcascade_frontalface_default`: every pass of the face search.
        case first
        /// `haarcascade_frontalface_alt2`, trained apart from the first and less strict about a face turned a little
        /// away: the confirming pass (`FaceSearch.unseenPersons`).
        case confirming

        var fileName: String {
            switch self {
            case .first: "haarcascade_frontalface_default.xml"
            case .confirming: "haarcascade_frontalface_alt2.xml"
            }
        }

        var bridgeValue: Int32 {
            switch self {
            case .first: Int32(KYC_FACE_CASCADE_FIRST)
            case .confirming: Int32(KYC_FACE_CASCADE_SECOND)
            }
        }
    }

    init() throws(FrameAnalysisError) {
        var error = [CChar](repeating: 0, count: 256)
        let created = kyc_face_detector_create("\(Self.cascadeDirectory)/\(Cascade.first.fileName)",
                                               "\(Self.cascadeDirectory)/\(Cascade.confirming.fileName)",
                                               "\(Self.cascadeDirectory)/haarcascade_eye.xml",
                                               "\(Self.cascadeDirectory)/haarcascade_eye_tree_eyeglasses.xml",
                                               &error, error.count)
        guard let created else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw FrameAnalysisError(code: .unsupportedFormat,
                                     message: "selfie mode unavailable: \(reason) (install Debian's opencv-data)")
        }
        detector = created
        faces = Array(repeating: kyc_face(), count: 8)
    }

    deinit { close() }

    /// Frees the cascades; safe to call more than once.
    func close() {
        if let detector { kyc_face_detector_destroy(detector) }
        detector = nil
    }

    /// How the search image's grey levels are spread before the search (the detector keeps the spread copy).
    enum LevelSpread {
        /// The image as it is: every well-exposed frame (spreading one turns background texture into faces).
        case asIs
        /// Histogram-equalised over the whole image: an under-exposed frame's face spans a few dozen grey levels.
        case equalized
        /// Equalised tile by tile (CLAHE): a dark face before a bright background, which whole-image equalisation
        /// leaves dark because the background takes most of the levels.
        case locallyEqualized

        var bridgeValue: Int32 {
            switch self {
            case .asIs: Int32(KYC_FACE_SEARCH_AS_IS)
            case .equalized: Int32(KYC_FACE_SEARCH_EQUALIZED)
            case .locallyEqualized: Int32(KYC_FACE_SEARCH_LOCALLY_EQUALIZED)
            }
        }
    }

    /// Faces in `search`, in `search`'s pixel coordinates, largest first, each with its eyes (0…2) counted in `eyes`
    /// (the same picture at a whole multiple of the size; glasses-wearing eyes through a second eye cascade). Faces are at least `minFace`
    /// and, when `maxFace` > 0, at most `maxFace` pixels wide. `levels` says how the search image's grey levels are
    /// spread first (see `LevelSpread`), and `cascade` which face cascade searches.
    /// `scaleStep` is the ratio between the face sizes tried and `minNeighbors` the overlapping hits a face needs
    /// (a finer step gives each face more hits: smaller steps find more and cost more).
    /// With `region` (a rectangle of `search`, clamped to it), only that part is searched (its part of `eyes` for
    /// the eyes), in place through the images' row strides; the faces are still in `search`'s coordinates.
    func detect(search: GrayImage, eyes: GrayImage, region: (x: Int, y: Int, width: Int, height: Int)? = nil,
                minFace: Int, maxFace: Int = 0, scaleStep: Double = 1.1,
                minNeighbors: Int = 4, levels: LevelSpread = .asIs, cascade: Cascade = .first) -> [kyc_face] {
        guard let detector else { return [] }
        var x = 0, y = 0, width = search.width, height = search.height
        if let region {
            x = min(max(region.x, 0), search.width)
            y = min(max(region.y, 0), search.height)
            width = min(max(region.width, 0), search.width - x)
            height = min(max(region.height, 0), search.height - y)
        }
        // `eyes` is `search` at a whole multiple of its size (1 or 2).
        let scale = eyes.width / max(search.width, 1)
        guard width > 0, height > 0, scale >= 1 else { return [] }
        let searchStart = search.base + y * search.width + x
        let eyesStart = eyes.base + y * scale * eyes.width + x * scale
        let count = faces.withUnsafeMutableBufferPointer { out in
            kyc_face_detect(detector, searchStart, Int32(width), Int32(height), Int32(search.width),
                            eyesStart, Int32(width * scale), Int32(height * scale), Int32(eyes.width), Int32(minFace),
                            Int32(maxFace), scaleStep, Int32(minNeighbors), levels.bridgeValue, cascade.bridgeValue,
                            Self.minimumScore,
                            out.baseAddress, Int32(out.count))
        }
        guard count > 0 else { return [] }
        return faces.prefix(Int(count)).map { face in
            var moved = face
            moved.x += Int32(x)
            moved.y += Int32(y)
            return moved
        }
    }
}
