// Video-range luma (16…235) stretched to full range (0…255), so that a video-range camera buffer meets the same
// brightness, glare and contrast thresholds as a JPEG (`LumaRange`; applied by `RawFrameSampler` as it samples).

extension LumaRange {
    /// Full-range luma of each video-range code: (y − 16) × 255 / 219, rounded, clamped to 0…255 (the codes below
    /// 16 and above 235, which a camera may still write as foot- and headroom, clip to black and white).
    static let fullRangeOfVideoLuma: [UInt8] = (0...255).map { code in
        let scaled = (Double(code) - 16) * 255 / 219
        return UInt8(max(0, min(255, scaled.rounded())))
    }
}
