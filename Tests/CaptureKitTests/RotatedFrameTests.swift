// A frame that arrives a quarter turn (or a half turn) from upright with the rotation that stands it up is judged
// exactly as the upright frame: every framegen frame is turned here and sent as a raw gray8 frame with its rotation.
import Foundation
import Testing
@testable import FrameAnalysis

/// Test-side pixel turning, written apart from the engine's `setUpright`.
enum RotatedFrames {
    /// A JPEG's full-resolution gray pixels.
    static func grayPixels(of jpeg: [UInt8]) throws -> (pixels: [UInt8], width: Int, height: Int) {
        let image = GrayImage()
        try JPEGGrayDecoder().decode(jpeg, into: image, longSide: .max, maxPixels: 40_000_000)
        return (Array(UnsafeBufferPointer(start: image.base, count: image.width * image.height)),
                image.width, image.height)
    }

    /// `pixels` (width × height) turned a quarter turn clockwise: a height × width image.
    static func turnedClockwise(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixels.count)
        out.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { pixels in
                // Upright (x, y) moves to (height − 1 − y, x) of a height-wide image.
                for y in 0..<height {
                    for x in 0..<width { out[x * height + (height - 1 - y)] = pixels[y * width + x] }
                }
            }
        }
        return out
    }

    /// `pixels` turned `quarterTurns` quarter turns clockwise, with its new size.
    static func turned(_ pixels: [UInt8], width: Int, height: Int, quarterTurns: Int)
        -> (pixels: [UInt8], width: Int, height: Int) {
        var image = (pixels: pixels, width: width, height: height)
        for _ in 0..<quarterTurns {
            image = (turnedClockwise(image.pixels, width: image.width, height: image.height), image.height, image.width)
        }
        return image
    }
}

@Suite("Frames that arrive turned")
struct RotatedFrameTests {
    /// Every 720p framegen frame of `mode`, stored turned anticlockwise and sent with the clockwise rotation that
    /// undoes it: the same analysis as the upright raw frame (the working image is the same pixels, so sizes,
    /// corners, faces, metrics and feedback are equal, not merely close). Returns the frames compared.
    static func compareTurned(mode: String, rotations: (Int) -> [FrameRotation]) throws -> Int {
        let set = try GeneratedFrames.accuracySet.get()
        let analyzer = FrameAnalyzer()
        let frameMode: FrameMode = mode == "selfie" ? .selfie : .document
        var compared = 0
        for (index, label) in set.labels.enumerated()
        where label.mode == mode && label.sequence == nil && label.width == 1280 {
            let upright = try RotatedFrames.grayPixels(of: try set.bytes(label))
            let expected = try analyzer.analyze(.raw(bytes: upright.pixels, width: upright.width,
                                                     height: upright.height, stride: upright.width, format: .gray8),
                                                mode: frameMode)
            for rotation in rotations(index) {
                // Stored turned back by the rotation (anticlockwise = the remaining clockwise turns).
                let stored = RotatedFrames.turned(upright.pixels, width: upright.width, height: upright.height,
                                                  quarterTurns: (4 - rotation.degrees / 90) % 4)
                let analysis = try analyzer.analyze(.raw(bytes: stored.pixels, width: stored.width,
                                                         height: stored.height, stride: stored.width, format: .gray8),
                                                    mode: frameMode, rotation: rotation)
                #expect(analysis == expected, """
                    \(label.file) turned \(rotation.degrees)°: \(analysis.feedback) \(analysis.region?.corners ?? []) \
                    vs \(expected.feedback) \(expected.region?.corners ?? [])
                    """)
                compared += 1
            }
        }
        return compared
    }

    @Test func everyDocumentFrameTurnedEveryWayIsJudgedAsUpright() async throws {
        let compared = try await onOwnThread {
            try Self.compareTurned(mode: "document") { _ in [.clockwise90, .clockwise180, .clockwise270] }
        }
        #expect(compared >= 150)
    }

    @Test func everySelfieFrameTurnedAQuarterIsJudgedAsUpright() async throws {
        // One turn per frame, alternating (the face search is the dear part).
        let compared = try await onOwnThread {
            try Self.compareTurned(mode: "selfie") { index in [index % 2 == 0 ? .clockwise90 : .clockwise270] }
        }
        #expect(compared >= 40)
    }
}
