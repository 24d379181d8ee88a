// Damaged frames, made by seeded random mutation of good ones: the engine answers each with an analysis or an error
// value, never a crash (a crash ends the test process), and an analysis has only finite numbers. The header and EXIF
// area are mutated hardest: that is where a parser meets a length or an offset it must not trust.
import Foundation
import Testing
import TestSupport
@testable import FrameAnalysis

@Suite struct MutatedInputTests {
    private static func fixture(_ name: String) throws -> [UInt8] {
        try fixtureBytes(name)
    }

    /// Runs `analyze` on `count` damaged copies of `jpeg`; returns (analyses, errors). With `exifBody`, every other
    /// copy is damaged only inside that range (the EXIF data): the JPEG still decodes, and the EXIF reader meets
    /// every kind of broken directory while the frame is analysed however it says to turn it.
    private static func survive(_ jpeg: [UInt8], mode: FrameMode, count: Int, seed: UInt64,
                                exifBody: Range<Int>? = nil) -> (Int, Int) {
        var mutator = SeededMutator(state: seed)
        let analyzer = FrameAnalyzer()
        var analysed = 0, refused = 0
        for index in 0..<count {
            var damaged: [UInt8]
            if let exifBody, index % 2 == 0 {
                damaged = jpeg
                for _ in 0...mutator.next(8) {
                    damaged[exifBody.lowerBound + mutator.next(exifBody.count)] = UInt8(mutator.next(256))
                }
            } else {
                damaged = mutator.damaged(jpeg)
            }
            _ = ExifOrientationReader.orientation(ofJPEG: damaged)
            do {
                let analysis = try analyzer.analyze(.jpeg(damaged), mode: mode,
                                                    rotation: FrameRotation.allCases[mutator.next(4)])
                let finite = analysis.metrics.values.values.allSatisfy { $0.isFinite }
                #expect(finite, "\(analysis.metrics)")
                #expect(analysis.width > 0 && analysis.height > 0 && !analysis.feedback.isEmpty)
                analysed += 1
            } catch {
                #expect(!error.message.isEmpty)
                refused += 1
            }
        }
        return (analysed, refused)
    }

    @Test func damagedPhonePhotosWithExifAreAnalysedOrRefused() throws {
        let jpeg = try Self.fixture("sideways-selfie-exif6-framegen.jpg")
        let app1 = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE1 })
        let length = Int(jpeg[app1 + 2]) << 8 | Int(jpeg[app1 + 3])
        let (analysed, refused) = Self.survive(jpeg, mode: .selfie, count: 80, seed: 11,
                                               exifBody: (app1 + 4)..<(app1 + 2 + length))
        #expect(analysed + refused == 80)
        #expect(refused > 0, "the mutations must reach the decoder's refusals")
        #expect(analysed >= 40, "the copies damaged inside the EXIF data still decode (\(analysed))")
    }

    @Test func damagedDocumentFramesAreAnalysedOrRefused() throws {
        let baseline = documentFrame().jpeg(), progressive = documentFrame(seed: 3).jpeg(progressive: true)
        for (jpeg, seed) in [(baseline, UInt64(5)), (progressive, UInt64(6))] {
            let (analysed, refused) = Self.survive(jpeg, mode: .document, count: 150, seed: seed)
            #expect(analysed + refused == 150 && refused > 0)
        }
    }

    /// A progressive frame is decoded to its Y, Cb and Cr planes at once (`FrameColour.decodeWithLuma`), a baseline
    /// one to gray: damaged the same way, the two decodes must agree — both refuse it with the same error, or both
    /// decode it and the Y plane is the gray image, pixel for pixel (a frame must not be analysed, or refused,
    /// differently for being progressive). A frame the planes decode finds no chroma in (damage that made it one
    /// component) is decoded to gray instead, as the analyzer does.
    @Test func damagedProgressiveFramesDecodeAlikeBothWays() throws {
        let progressive = try Self.fixture("colour-edged-card-camsim-seed4.jpg")
        #expect(JPEGCodingProcess.isProgressive(progressive))
        var mutator = SeededMutator(state: 12)
        let decoder = JPEGGrayDecoder()
        let gray = GrayImage(), luma = GrayImage(), cb = GrayImage(), cr = GrayImage()
        var decoded = 0, refused = 0, withoutChroma = 0
        for _ in 0..<400 {
            let damaged = mutator.damaged(progressive)
            var grayError: FrameAnalysisError?, planesError: FrameAnalysisError?
            var planes: (width: Int, height: Int)?
            do { try decoder.decode(damaged, into: gray, longSide: 640, maxPixels: 1 << 24) } catch { grayError = error }
            do {
                planes = try decoder.decodeChroma(damaged, luma: luma, cb: cb, cr: cr, longSide: 640,
                                                  maxPixels: 1 << 24)
            } catch {
                planesError = error
            }
            if planesError == nil && planes == nil {
                withoutChroma += 1
                continue
            }
            #expect(grayError?.code == planesError?.code,
                    "\(String(describing: grayError)) / \(String(describing: planesError))")
            guard grayError == nil && planesError == nil else {
                refused += 1
                continue
            }
            decoded += 1
            // (Compared outside #expect: a failed comparison of two arrays this long is diffed for minutes.)
            let same = luma.width == gray.width && luma.height == gray.height
                && Array(UnsafeBufferPointer(start: luma.base, count: luma.width * luma.height))
                    == Array(UnsafeBufferPointer(start: gray.base, count: gray.width * gray.height))
            #expect(same, "luma \(luma.width)×\(luma.height), gray \(gray.width)×\(gray.height)")
        }
        print("damaged progressive frames: \(decoded) decoded, \(refused) refused, \(withoutChroma) without chroma")
        #expect(decoded > 0 && refused > 0, "\(decoded) decoded, \(refused) refused")
    }

    /// The EXIF reader alone, fast enough for many more cases: damaged APP1 segments read as some orientation or
    /// upright, never a crash.
    @Test func damagedExifSegmentsNeverCrashTheReader() throws {
        let jpeg = try Self.fixture("sideways-selfie-exif6-framegen.jpg")
        let app1 = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE1 })
        let length = Int(jpeg[app1 + 2]) << 8 | Int(jpeg[app1 + 3])
        var mutator = SeededMutator(state: 7)
        var upright = 0, stillRead = 0
        for _ in 0..<3000 {
            var damaged = Array(jpeg.prefix(app1 + 2 + length + 2))
            for _ in 0...mutator.next(6) {
                damaged[app1 + 2 + mutator.next(length)] = UInt8(mutator.next(256))
            }
            let orientation = ExifOrientationReader.orientation(ofJPEG: damaged)
            if orientation == .upright { upright += 1 }
            if orientation == FrameOrientation(exifOrientation: 6) { stillRead += 1 }
        }
        #expect(upright > 0)
        // Damage that misses the tag leaves it readable: the reader reads, it does not just give up.
        #expect(stillRead > 0, "\(upright) upright, \(stillRead) still read as 6")
    }

    /// Raw frames of every layout, sound and not: random sizes (tiny to large), strides, formats, buffers a few bytes
    /// short or long, and every rotation. Each is analysed or refused with an error value.
    @Test func rawFramesOfAnyLayoutAreAnalysedOrRefused() {
        var mutator = SeededMutator(state: 9)
        let analyzer = FrameAnalyzer(maxPixels: 4_000_000)
        var analysed = 0, refused = 0
        for _ in 0..<300 {
            let width = 1 + mutator.next(mutator.next(2) == 0 ? 40 : 2100)
            let height = 1 + mutator.next(mutator.next(2) == 0 ? 40 : 1300)
            let stride = width + mutator.next(3) * mutator.next(64)
            let format = RawPixelFormat.allCases[mutator.next(3)]
            let rows = height + (format == .gray8 ? 0 : (height + 1) / 2)
            let size = max(0, stride * rows - mutator.next(2) * mutator.next(stride + 1) + mutator.next(2) * mutator.next(9))
            let bytes = [UInt8](repeating: UInt8(mutator.next(256)), count: min(size, 12_000_000))
            do {
                let analysis = try analyzer.analyze(.raw(bytes: bytes, width: width, height: height, stride: stride,
                                                         format: format, lumaRange: mutator.next(2) == 0 ? .full : .video),
                                                    mode: mutator.next(4) == 0 ? .selfie : .document,
                                                    rotation: FrameRotation.allCases[mutator.next(4)])
                #expect(analysis.metrics.values.values.allSatisfy { $0.isFinite })
                analysed += 1
            } catch {
                refused += 1
            }
        }
        print("raw layouts: \(analysed) analysed, \(refused) refused")
        #expect(analysed >= 50 && refused > 0 && analysed + refused == 300)
    }
}
