// The inputs the engine accepts: a JPEG file's bytes, or a raw camera frame's luma plane (gray8, NV12, NV21).

/// What kind of capture a frame belongs to: an identity document or a selfie.
public enum FrameMode: String, Sendable, Codable, CaseIterable {
    case document, selfie
}

/// Layouts of raw camera frames. NV12 and NV21 carry a full-resolution Y plane first; only it is read.
public enum RawPixelFormat: String, Sendable, Codable, CaseIterable {
    case gray8, nv12, nv21
}

/// The span of luma codes a raw frame uses. Camera buffers come in two: full range (0…255, as JPEG; Android's
/// YUV_420_888) and video range (16…235, ITU-R BT.601/709; iOS's default `420YpCbCr8BiPlanarVideoRange`, "420v").
/// Every brightness threshold is full range: a video-range frame read as it is never reaches the glare luma (250)
/// and its black is 16, so it is expanded to full range first.
public enum LumaRange: String, Sendable, Codable, CaseIterable {
    case full, video
}

/// One camera frame as it arrives from the capture SDK.
public enum FrameInput: Sendable {
    /// A baseline or progressive JPEG file (full range, as JFIF defines it).
    case jpeg([UInt8])
    /// A raw frame: `stride` bytes per row of the Y plane (≥ width); NV12/NV21 also carry the interleaved chroma
    /// plane of `stride × ceil(height / 2)` bytes after it.
    case raw(bytes: [UInt8], width: Int, height: Int, stride: Int, format: RawPixelFormat, lumaRange: LumaRange = .full)
}
