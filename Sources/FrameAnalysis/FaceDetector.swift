// OpenCV Haar cascades (Debian's opencv-data) through the COpenCVBridge C functions. The cascades are parsed once
// per detector (tens of milliseconds), so a detector lives as long as its analyzer.
import COpenCVBridge

/// Face + eye detection. Owns one `kyc_face_detector`; one detector per thread.
final class FaceDetector {
    static let cascadeDirectory = "/usr/share/opencv4/haarcascades"
    private var detector: OpaquePointer?
    private var faces: [kyc_face]

    init() throws(FrameAnalysisError) {
        var error = [CChar](repeating: 0, count: 256)
        let created = kyc_face_detector_create("\(Self.cascadeDirectory)/haarcascade_frontalface_default.xml",
                                               "\(Self.cascadeDirectory)/haarcascade_eye.xml", &error, error.count)
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

    /// Faces in `small` (eyes searched in `large`), in `small`'s pixel coordinates, largest first.
    func detect(small: GrayImage, large: GrayImage, minFace: Int) -> [kyc_face] {
        guard let detector else { return [] }
        let count = faces.withUnsafeMutableBufferPointer { out in
            kyc_face_detect(detector, small.base, Int32(small.width), Int32(small.height), Int32(small.width),
                            large.base, Int32(large.width), Int32(large.height), Int32(large.width), Int32(minFace),
                            out.baseAddress, Int32(out.count))
        }
        guard count > 0 else { return [] }
        return Array(faces.prefix(Int(count)))
    }
}
