// Frames stored sideways (a phone's sensor orientation, a photo's EXIF Orientation tag) are turned upright before
// they are analysed, and every size and coordinate is reported in the upright frame (docs/capture.md, "Orientation").
import Foundation
import Testing
@testable import FrameAnalysis

@Suite struct FrameOrientationTests {
    /// Where the stored image's 0th row and 0th column are seen, for each EXIF Orientation value (the TIFF 6.0 /
    /// EXIF 2.3 definition, written out independently of `FrameOrientation`'s mirror-then-turn form).
    private enum Side { case top, bottom, left, right }
    private static let exifSides: [Int: (row: Side, column: Side)] = [
        1: (.top, .left), 2: (.top, .right), 3: (.bottom, .right), 4: (.bottom, .left),
        5: (.left, .top), 6: (.right, .top), 7: (.right, .bottom), 8: (.left, .bottom),
    ]

    /// The upright position of stored pixel (x, y) by the definition: row y lies y rows in from the 0th row's side,
    /// column x lies x columns in from the 0th column's side.
    private static func expectedPosition(x: Int, y: Int, sides: (row: Side, column: Side),
                                         uprightWidth: Int, uprightHeight: Int) -> (x: Int, y: Int) {
        switch sides.row {
        case .top, .bottom:
            let uy = sides.row == .top ? y : uprightHeight - 1 - y
            let ux = sides.column == .left ? x : uprightWidth - 1 - x
            return (ux, uy)
        case .left, .right:
            let ux = sides.row == .left ? y : uprightWidth - 1 - y
            let uy = sides.column == .top ? x : uprightHeight - 1 - x
            return (ux, uy)
        }
    }

    /// Sizes with and without whole 8 × 8 blocks (a quarter turn moves those in registers, the rest pixel by pixel);
    /// odd and unequal sides, so that an off-by-one or a swapped axis cannot cancel out.
    static let sizes = [(7, 3), (37, 21), (16, 8), (8, 17), (64, 40)]

    @Test(arguments: 1...8)
    func everyExifOrientationPutsEachPixelWhereTheTagSays(value: Int) throws {
        let orientation = try #require(FrameOrientation(exifOrientation: value))
        let sides = try #require(Self.exifSides[value])
        for (width, height) in Self.sizes {
            // Two images, one holding each pixel's x and one its y, so that every pixel is told apart exactly.
            for coordinate in ["x", "y"] {
                let stored = GrayImage()
                stored.resize(width: width, height: height)
                for y in 0..<height {
                    for x in 0..<width { stored.base[y * width + x] = UInt8(coordinate == "x" ? x : y) }
                }
                let upright = GrayImage()
                upright.setUpright(from: stored, orientation: orientation)
                let size = orientation.upright(width: width, height: height)
                #expect((upright.width, upright.height) == (size.width, size.height))
                #expect(size.width == ([5, 6, 7, 8].contains(value) ? height : width))
                var misplaced = 0
                for y in 0..<height {
                    for x in 0..<width {
                        let at = Self.expectedPosition(x: x, y: y, sides: sides, uprightWidth: size.width,
                                                       uprightHeight: size.height)
                        if upright.base[at.y * upright.width + at.x] != UInt8(coordinate == "x" ? x : y) {
                            misplaced += 1
                        }
                    }
                }
                #expect(misplaced == 0, "EXIF \(value), \(width)×\(height): \(misplaced) pixels misplaced (\(coordinate))")
            }
        }
    }

    /// The 8 × 8 register transpose alone: element k holds stored column k, byte j of it stored row j.
    @Test func eightByEightBlocksAreTransposedInRegisters() {
        let stride = 11
        let pixels = (0..<(8 * stride)).map { UInt8($0) }
        let columns = pixels.withUnsafeBufferPointer { GrayImage.transposed8x8($0.baseAddress!, stride: stride) }
        withUnsafeBytes(of: columns) { bytes in
            for k in 0..<8 {
                for j in 0..<8 { #expect(bytes[8 * k + j] == pixels[j * stride + k], "column \(k), row \(j)") }
            }
        }
    }

    @Test func outOfRangeExifValuesAndRotationsAreRefused() {
        #expect(FrameOrientation(exifOrientation: 0) == nil)
        #expect(FrameOrientation(exifOrientation: 9) == nil)
        #expect(FrameRotation(degrees: 45) == nil)
        #expect(FrameRotation(degrees: -90) == nil)
        #expect(FrameRotation(degrees: 360) == nil)
        #expect(FrameRotation.allCases.map(\.degrees) == [0, 90, 180, 270])
    }

    @Test func aClockwiseQuarterTurnIsExifSixAndTheTurnsAddUp() throws {
        let six = try #require(FrameOrientation(exifOrientation: 6))
        #expect(FrameOrientation(.clockwise90) == six)
        #expect(six.followed(by: .clockwise270) == .upright)
        #expect(try #require(FrameOrientation(exifOrientation: 3)).followed(by: .clockwise180) == .upright)
        // A mirror stays a mirror whatever turn follows it: EXIF 2 then half a turn is EXIF 4.
        #expect(try #require(FrameOrientation(exifOrientation: 2)).followed(by: .clockwise180)
                == FrameOrientation(exifOrientation: 4))
    }

    // MARK: Through the analyzer

    private static func fixture(_ name: String) throws -> [UInt8] {
        try fixtureBytes(name)
    }

    /// Fixtures/README.md: a selfie stored a quarter turn anticlockwise, with EXIF Orientation 6 (as a phone
    /// writes a photo taken upright). Read as stored, the face lies on its side and the cascades see none.
    @Test func aPhotoStoredSidewaysIsAnalysedAsItsExifTagShowsIt() throws {
        let jpeg = try Self.fixture("sideways-selfie-exif6-framegen.jpg")
        #expect(ExifOrientationReader.orientation(ofJPEG: jpeg) == FrameOrientation(exifOrientation: 6))
        let analysis = try FrameAnalyzer().analyze(.jpeg(jpeg), mode: .selfie)
        #expect(analysis.primary == .good, "\(analysis.feedback)")
        // Sizes and the face box are the upright frame's (the file is stored 360 × 640).
        #expect((analysis.width, analysis.height) == (640, 360))
        let face = try #require(analysis.faces.first)
        #expect(face.x > 200 && face.x + face.width < 440 && face.y + face.height < 360, "\(face)")
        // A further half turn from the client puts the face upside down: the rotation follows the EXIF one.
        let upsideDown = try FrameAnalyzer().analyze(.jpeg(jpeg), mode: .selfie, rotation: .clockwise180)
        #expect(upsideDown.primary == .noFace, "\(upsideDown.feedback)")
    }

    @Test func aJPEGWithoutExifOrWithADamagedOneIsUpright() throws {
        var jpeg = try Self.fixture("sideways-selfie-exif6-framegen.jpg")
        // No EXIF at all: a camera frame (libexif, which allocates, is not even called).
        #expect(ExifOrientationReader.orientation(ofJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) == .upright)
        #expect(ExifOrientationReader.orientation(ofJPEG: []) == .upright)
        #expect(ExifOrientationReader.hasApp1Segment(jpeg))
        #expect(!ExifOrientationReader.hasApp1Segment(documentFrame().jpeg()))
        // APP1 after a JFIF APP0 and a comment is found; a segment length running past the end is not followed.
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46], comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x03, 0x41]
        #expect(ExifOrientationReader.hasApp1Segment([0xFF, 0xD8] + app0 + comment + [0xFF, 0xE1, 0x00, 0x02]))
        #expect(!ExifOrientationReader.hasApp1Segment([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xF0, 0xFF, 0xE1, 0x00, 0x02]))
        #expect(!ExifOrientationReader.hasApp1Segment([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0xFF, 0xE1, 0x00, 0x02]))
        // The APP1 segment cut short: libexif finds no tag, and the frame is read as stored.
        let app1 = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE1 })
        jpeg[app1 + 2] = 0
        jpeg[app1 + 3] = 4
        #expect(ExifOrientationReader.orientation(ofJPEG: jpeg) == .upright)
    }

    /// A raw frame (no EXIF) turned by the client's rotation: the gray8 frame of a card stored a quarter turn
    /// clockwise of upright is found where the upright frame shows it.
    @Test func aRawFrameIsTurnedByTheClientsRotation() throws {
        let upright = documentFrame()
        // Stored a quarter turn clockwise: upright (x, y) is stored at (h − 1 − y, x) in an h × w image.
        var stored = [UInt8](repeating: 0, count: upright.width * upright.height)
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                stored[x * upright.height + (upright.height - 1 - y)] = upright.pixels[y * upright.width + x]
            }
        }
        let input = FrameInput.raw(bytes: stored, width: upright.height, height: upright.width,
                                   stride: upright.height, format: .gray8)
        // Stored a quarter turn clockwise, so it takes three more to stand upright.
        let analysis = try FrameAnalyzer().analyze(input, mode: .document, rotation: .clockwise270)
        let expected = try FrameAnalyzer().analyze(.raw(bytes: upright.pixels, width: upright.width,
                                                        height: upright.height, stride: upright.width,
                                                        format: .gray8), mode: .document)
        #expect(expected.region != nil)
        #expect(analysis == expected)
    }
}
