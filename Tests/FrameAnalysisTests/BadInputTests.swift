// Bad input is an error value with a code, never a crash.
import CTurboJPEG
import Testing
@testable import FrameAnalysis

@Suite struct BadInputTests {
    private func code(_ input: FrameInput, maxPixels: Int = 40_000_000) -> FrameAnalysisError.Code? {
        do {
            _ = try FrameAnalyzer(maxPixels: maxPixels).analyze(input, mode: .document)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func zeroBytesIsEmptyInput() {
        #expect(code(.jpeg([])) == .emptyInput)
        #expect(code(.raw(bytes: [], width: 4, height: 4, stride: 4, format: .gray8)) == .emptyInput)
    }

    @Test func garbageIsCorrupt() {
        #expect(code(.jpeg(Array("definitely not a jpeg".utf8))) == .corruptImage)
        #expect(code(.jpeg([0xFF, 0xD8, 0xFF])) == .corruptImage)
    }

    /// TurboJPEG 2.1 leaves a handle that failed mid-stream in libjpeg's state of that moment: before the decoder
    /// renewed its handle after an error, the next sound frame failed too ("Bogus DQT index"), so one damaged frame
    /// made every later frame of that analyzer (a CaptureService worker thread, any tenant's) `corrupt_image`.
    @Test func aDamagedFrameDoesNotSpoilTheNextSoundOne() throws {
        let sound = documentFrame().jpeg()
        let analyzer = FrameAnalyzer()
        let expected = try analyzer.analyze(.jpeg(sound), mode: .document)
        // Cut in the tables, cut in the entropy-coded data, a marker without its segment, garbage after the start.
        let damaged = [Array(sound.prefix(300)), Array(sound.prefix(sound.count / 2)), [0xFF, 0xD8, 0xFF, 0xDB],
                       Array(sound.prefix(2)) + Array(repeating: 0xAB, count: 400)]
        for bad in damaged {
            #expect(throws: FrameAnalysisError.self) { try analyzer.analyze(.jpeg(bad), mode: .document) }
            #expect(try analyzer.analyze(.jpeg(sound), mode: .document) == expected)
        }
    }

    @Test func truncatedJPEGIsCorruptNotHalfGrey() {
        let jpeg = documentFrame().jpeg()
        #expect(code(.jpeg(Array(jpeg.prefix(jpeg.count / 2)))) == .corruptImage)
        #expect(code(.jpeg(Array(jpeg.dropLast(10)))) == .corruptImage)
    }

    /// A print-production (CMYK) JPEG is whole but has no luma to decode to gray: refused as a format, not as damage.
    @Test func cmykJPEGIsAnUnsupportedFormat() throws {
        let frame = documentFrame()
        let cmyk = frame.pixels.flatMap { gray in [0, 0, 0, 255 - gray] as [UInt8] }
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = cmyk.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(frame.width), Int32(4 * frame.width), Int32(frame.height),
                        Int32(TJPF_CMYK.rawValue), &buffer, &size, Int32(TJSAMP_444.rawValue), 85, 0)
        }
        #expect(rc == 0)
        defer { tjFree(buffer) }
        let jpeg = Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
        #expect(code(.jpeg(jpeg)) == .unsupportedFormat)
        #expect(code(.jpeg(frame.jpeg())) == nil)
    }

    @Test func flippedBytesInTheScanAreCorruptOrStillAnalysed() {
        // Damage inside the entropy-coded data: either refused as corrupt or decoded; never a crash.
        var jpeg = documentFrame().jpeg()
        for i in stride(from: jpeg.count / 3, to: jpeg.count - 4, by: 97) { jpeg[i] ^= 0x5A }
        let result = code(.jpeg(jpeg))
        #expect(result == nil || result == .corruptImage)
    }

    @Test func headerClaimingTooManyPixelsIsRefusedBeforeDecoding() {
        let jpeg = documentFrame().jpeg()
        #expect(code(.jpeg(jpeg), maxPixels: 640 * 360 - 1) == .tooManyPixels)
        #expect(code(.jpeg(jpeg), maxPixels: 640 * 360) == nil)
        // A forged header (SOF0 claiming 60000×60000) on a tiny body: refused from the header alone.
        var forged = jpeg
        if let sof = (0..<(forged.count - 9)).first(where: { forged[$0] == 0xFF && forged[$0 + 1] == 0xC0 }) {
            forged[sof + 5] = 0xEA; forged[sof + 6] = 0x60; forged[sof + 7] = 0xEA; forged[sof + 8] = 0x60
        }
        #expect(code(.jpeg(forged)) == .tooManyPixels)
    }

    @Test func rawFrameOfTheWrongSizeIsRefused() {
        #expect(code(.raw(bytes: [UInt8](repeating: 0, count: 99), width: 10, height: 10, stride: 10, format: .gray8))
                == .wrongRawSize)
        #expect(code(.raw(bytes: [UInt8](repeating: 0, count: 101), width: 10, height: 10, stride: 10, format: .gray8))
                == .wrongRawSize)
        // NV12 needs the chroma plane too.
        #expect(code(.raw(bytes: [UInt8](repeating: 0, count: 100), width: 10, height: 10, stride: 10, format: .nv21))
                == .wrongRawSize)
        #expect(code(.raw(bytes: [UInt8](repeating: 0, count: 100), width: 10, height: 10, stride: 8, format: .gray8))
                == .wrongRawSize)
        #expect(code(.raw(bytes: [1], width: -1, height: 10, stride: 10, format: .gray8)) == .wrongRawSize)
        #expect(code(.raw(bytes: [1], width: Int.max, height: Int.max, stride: Int.max, format: .gray8))
                == .tooManyPixels)
    }

    @Test func rawFrameAboveMaxPixelsIsRefused() {
        let bytes = [UInt8](repeating: 0, count: 100 * 100)
        #expect(code(.raw(bytes: bytes, width: 100, height: 100, stride: 100, format: .gray8), maxPixels: 9_999)
                == .tooManyPixels)
    }

    @Test func tinyFrameIsAnErrorNotACrash() {
        let bytes = [UInt8](repeating: 0, count: 4)
        #expect(code(.raw(bytes: bytes, width: 2, height: 2, stride: 2, format: .gray8)) == .unsupportedFormat)
    }
}
