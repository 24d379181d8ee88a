// Every threshold the engine and the auto-capture tracker judge against, with the defaults docs/capture.md lists.
import Foundation

/// Thresholds for feedback and auto-capture. Every field has a documented default; a JSON file overrides any subset.
/// Brightness values are 8-bit luma (0…255); fractions are 0…1 of the frame or the document area.
public struct AnalysisThresholds: Sendable, Codable, Equatable {
    // Working resolution.
    /// Long side (pixels) the frame is decoded/subsampled to at least (JPEG DCT scaling picks the smallest scale ≥ it).
    public var workingLongSide: Int = 640

    // Document detection.
    /// Below this quad confidence the frame is NO_DOCUMENT.
    public var minDocumentConfidence: Double = 0.6
    /// A corner closer than this share of the frame's short side to an edge (or outside) is CUT_OFF.
    public var edgeMargin: Double = 0.01
    /// On a document with nothing else to fix, a corner closer than this share of the short side to an edge is
    /// CUT_OFF: a capture needs room for the outline's own error (the corner error the engine is held to, 2 % of the
    /// diagonal, is 3.3-4.1 % of a 4:3 or 16:9 frame's short side), or a card part found close to the edge, its card
    /// going on out of view, is captured. Only holds back a capture; 0 turns it off.
    public var minCaptureMargin: Double = 0.03
    /// Document area / area of the largest ID-1 card (aspect 1.586) that fits the frame, below this: MOVE_CLOSER.
    public var minFill: Double = 0.18
    /// The same relative fill above this: MOVE_AWAY (which then replaces CUT_OFF: the card is cut off by closeness).
    public var maxFill: Double = 0.75
    /// Largest corner-angle deviation from 90° (degrees) above which the document is TILTED.
    public var maxSkew: Double = 15

    // Exposure and quality (both modes).
    /// Mean luma of the document (or face / frame) below this: TOO_DARK.
    public var minBrightness: Double = 80
    /// Mean luma of the document (or frame) above this: TOO_BRIGHT.
    public var maxBrightness: Double = 225
    /// Face sharpness (0…1, 1 = a one-pixel step on the face resampled to 96 px) below this: BLURRY (selfies).
    public var minSharpness: Double = 0.5
    /// Document sharpness (0…1, `CardSharpness`: step edges only, 0.5 ≈ the softest card a camera should keep) below
    /// this: BLURRY (documents). Separate from `minSharpness` because the two measures have their own scales.
    public var minDocumentSharpness: Double = 0.5
    /// Sharpness of the whole frame (`CardSharpness` over every pixel, as `sceneSharpness`) below which a soft card's
    /// BLURRY goes before CUT_OFF, MOVE_AWAY and TILTED: the scene is smeared as a whole, so the outline those were
    /// judged on is no instruction to follow (ADR 13). 0 keeps the canonical order always. (0.3 until session 36.)
    public var maxBlurredSceneSharpness: Double = 0.36
    /// Width of the ramp the card's own outline edge makes across its wider pair of opposite sides (`OutlineSmear`),
    /// as a share of the working image's long side, above which a document is BLURRY however sharp its print reads
    /// (`sharpness`): motion smears the two sides across it as wide as the smear. 0.007 ≈ 4.5 px at 640; sharp
    /// cards read at most 0.004. 0 turns the check off.
    public var maxOutlineSmear: Double = 0.007
    /// Share of a step's rise, read 6 px either side, that its steepest two pixels make, weighted as `sharpness`
    /// (`CardSharpness.wideStepShare`, the weakest direction), below which a document with nothing else to fix is
    /// BLURRY: a shake's ghost copies make a card's steps staircases that read crisp over `sharpness`'s 4 px. Sharp
    /// cards about to be GOOD read 0.64 or more on the camsim sets, the shaken ones 0.53-0.57. 0 turns the check off.
    public var minWideStepShare: Double = 0.6
    /// Share of the points past an outline's corners at which two of its sides carry their edge on to the frame's
    /// border (`OutlineRunOn`), from which a document otherwise GOOD is CUT_OFF: the outline is a part of a card
    /// that goes on out of view. 0 turns the check off.
    public var minOutlineRunOn: Double = 0.7
    /// Ratio weakest/strongest directional sharpness below which a blurry frame's smear is directional (motion).
    /// Reported as the `motionAnisotropy` metric only: a single smeared frame is BLURRY either way, HOLD_STEADY is
    /// the tracker's answer to movement between frames. Kept so existing threshold files stay valid.
    public var maxMotionAnisotropy: Double = 0.55
    /// Saturated share of the document above which the whole document is clipped: TOO_BRIGHT, not GLARE.
    public var overexposedFraction: Double = 0.35
    /// Luma at or above which a pixel counts as saturated (glare).
    public var glareLuma: Double = 250
    /// Saturated share of the document area above this: GLARE.
    public var maxGlareFraction: Double = 0.03
    /// Largest connected saturated blob, as a share of the document area, above this: GLARE.
    public var maxGlareBlob: Double = 0.015

    // Selfie.
    /// Face width / frame short side below this: FACE_TOO_SMALL.
    public var minFaceSize: Double = 0.22
    /// Face width / frame short side above this: FACE_TOO_LARGE. The detector's face box spans brows to chin; the
    /// whole head (crown to chin) is about 1.8 × its width, so above 0.55 the head no longer fits the short side.
    public var maxFaceSize: Double = 0.55
    /// Distance of the face centre from the frame centre / frame short side above this: FACE_NOT_CENTERED.
    public var maxFaceOffset: Double = 0.2

    // Auto-capture.
    /// Consecutive GOOD and still frames before the tracker captures.
    public var stillFrames: Int = 3
    /// Largest mean corner movement between consecutive frames, as a share of the frame diagonal, that is still.
    public var maxCornerMotion: Double = 0.015
    /// In a stream, frames in a row whose card may be found around the previous frame's corners before one is searched
    /// whole again (`CaptureTracker.hint`); 0 searches every frame whole. A wrong track (the card's own print
    /// after a jump) lasts at most this many frames.
    public var maxTrackedFrames: Int = 4
    /// In a stream where the whole search found nothing (no card, no face), one frame in this many gets the whole
    /// search again (every fallback search or pass); the frames between get the first search only
    /// (`CaptureTracker.searchesLightly`). 1 searches every frame whole.
    public var wholeSearchEvery: Int = 4

    /// The documented defaults.
    public static let `default` = AnalysisThresholds()

    public init() {}

    /// Reads a JSON object whose keys are field names; absent keys keep their defaults, unknown keys are rejected
    /// (a typo must not silently leave a default in force), and values are range-checked.
    public init(json: [UInt8]) throws {
        let decoder = JSONDecoder()
        do {
            self = try decoder.decode(AnalysisThresholds.self, from: Data(json))
        } catch let error as AnalysisThresholdsError {
            throw error
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.last?.stringValue ?? ""
            throw AnalysisThresholdsError(key: key, message: "\(key) must be a number")
        } catch {
            throw AnalysisThresholdsError(key: "", message: "thresholds must be a JSON object of numbers")
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case workingLongSide, minDocumentConfidence, edgeMargin, minCaptureMargin, minFill, maxFill, maxSkew,
             minBrightness, maxBrightness, minSharpness, minDocumentSharpness, maxBlurredSceneSharpness, maxOutlineSmear,
             minWideStepShare, minOutlineRunOn, maxMotionAnisotropy, overexposedFraction, glareLuma, maxGlareFraction,
             maxGlareBlob, minFaceSize, maxFaceSize, maxFaceOffset,
             stillFrames, maxCornerMotion, maxTrackedFrames, wholeSearchEvery
    }

    /// Any key, so unknown ones can be named in the error.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
            throw AnalysisThresholdsError(key: key.stringValue, message: "unknown threshold '\(key.stringValue)'")
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var t = AnalysisThresholds()
        func read(_ key: CodingKeys, _ value: inout Double, in range: ClosedRange<Double>) throws {
            guard let v = try c.decodeIfPresent(Double.self, forKey: key) else { return }
            guard v.isFinite, range.contains(v) else {
                throw AnalysisThresholdsError(key: key.stringValue,
                    message: "\(key.stringValue) must be within \(range.lowerBound)…\(range.upperBound)")
            }
            value = v
        }
        func read(_ key: CodingKeys, _ value: inout Int, in range: ClosedRange<Int>) throws {
            guard let v = try c.decodeIfPresent(Int.self, forKey: key) else { return }
            guard range.contains(v) else {
                throw AnalysisThresholdsError(key: key.stringValue,
                    message: "\(key.stringValue) must be within \(range.lowerBound)…\(range.upperBound)")
            }
            value = v
        }
        try read(.workingLongSide, &t.workingLongSide, in: 64...4096)
        try read(.minDocumentConfidence, &t.minDocumentConfidence, in: 0...1)
        try read(.edgeMargin, &t.edgeMargin, in: 0...0.25)
        try read(.minCaptureMargin, &t.minCaptureMargin, in: 0...0.25)
        try read(.minFill, &t.minFill, in: 0...1)
        try read(.maxFill, &t.maxFill, in: 0...1)
        try read(.maxSkew, &t.maxSkew, in: 0...90)
        try read(.minBrightness, &t.minBrightness, in: 0...255)
        try read(.maxBrightness, &t.maxBrightness, in: 0...255)
        try read(.minSharpness, &t.minSharpness, in: 0...1)
        try read(.minDocumentSharpness, &t.minDocumentSharpness, in: 0...1)
        try read(.maxBlurredSceneSharpness, &t.maxBlurredSceneSharpness, in: 0...1)
        try read(.maxOutlineSmear, &t.maxOutlineSmear, in: 0...1)
        try read(.minWideStepShare, &t.minWideStepShare, in: 0...1)
        try read(.minOutlineRunOn, &t.minOutlineRunOn, in: 0...1)
        try read(.maxMotionAnisotropy, &t.maxMotionAnisotropy, in: 0...1)
        try read(.overexposedFraction, &t.overexposedFraction, in: 0...1)
        try read(.glareLuma, &t.glareLuma, in: 1...255)
        try read(.maxGlareFraction, &t.maxGlareFraction, in: 0...1)
        try read(.maxGlareBlob, &t.maxGlareBlob, in: 0...1)
        try read(.minFaceSize, &t.minFaceSize, in: 0...1)
        try read(.maxFaceSize, &t.maxFaceSize, in: 0...2)
        try read(.maxFaceOffset, &t.maxFaceOffset, in: 0...1)
        try read(.stillFrames, &t.stillFrames, in: 1...1000)
        try read(.maxCornerMotion, &t.maxCornerMotion, in: 0...1)
        try read(.maxTrackedFrames, &t.maxTrackedFrames, in: 0...1000)
        try read(.wholeSearchEvery, &t.wholeSearchEvery, in: 1...1000)
        guard t.minFill <= t.maxFill else {
            throw AnalysisThresholdsError(key: "minFill", message: "minFill must not exceed maxFill")
        }
        guard t.minBrightness <= t.maxBrightness else {
            throw AnalysisThresholdsError(key: "minBrightness", message: "minBrightness must not exceed maxBrightness")
        }
        guard t.minFaceSize <= t.maxFaceSize else {
            throw AnalysisThresholdsError(key: "minFaceSize", message: "minFaceSize must not exceed maxFaceSize")
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(workingLongSide, forKey: .workingLongSide)
        try c.encode(minDocumentConfidence, forKey: .minDocumentConfidence)
        try c.encode(edgeMargin, forKey: .edgeMargin)
        try c.encode(minCaptureMargin, forKey: .minCaptureMargin)
        try c.encode(minFill, forKey: .minFill)
        try c.encode(maxFill, forKey: .maxFill)
        try c.encode(maxSkew, forKey: .maxSkew)
        try c.encode(minBrightness, forKey: .minBrightness)
        try c.encode(maxBrightness, forKey: .maxBrightness)
        try c.encode(minSharpness, forKey: .minSharpness)
        try c.encode(minDocumentSharpness, forKey: .minDocumentSharpness)
        try c.encode(maxBlurredSceneSharpness, forKey: .maxBlurredSceneSharpness)
        try c.encode(maxOutlineSmear, forKey: .maxOutlineSmear)
        try c.encode(minWideStepShare, forKey: .minWideStepShare)
        try c.encode(minOutlineRunOn, forKey: .minOutlineRunOn)
        try c.encode(maxMotionAnisotropy, forKey: .maxMotionAnisotropy)
        try c.encode(overexposedFraction, forKey: .overexposedFraction)
        try c.encode(glareLuma, forKey: .glareLuma)
        try c.encode(maxGlareFraction, forKey: .maxGlareFraction)
        try c.encode(maxGlareBlob, forKey: .maxGlareBlob)
        try c.encode(minFaceSize, forKey: .minFaceSize)
        try c.encode(maxFaceSize, forKey: .maxFaceSize)
        try c.encode(maxFaceOffset, forKey: .maxFaceOffset)
        try c.encode(stillFrames, forKey: .stillFrames)
        try c.encode(maxCornerMotion, forKey: .maxCornerMotion)
        try c.encode(maxTrackedFrames, forKey: .maxTrackedFrames)
        try c.encode(wholeSearchEvery, forKey: .wholeSearchEvery)
    }
}

/// A thresholds file that could not be used: which key, and why.
public struct AnalysisThresholdsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending key ("" when the document as a whole is wrong).
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { message }
}
