// CaptureService's own settings, read from the environment beside ServiceProcess's common ones.
import FrameAnalysis
import Foundation
import KYCCore

/// What CaptureService reads from its environment in addition to `ServiceProcessConfiguration`.
public struct CaptureServiceConfiguration: Sendable {
    /// Thresholds for feedback and auto-capture (docs/capture.md lists every field and default).
    public var thresholds = AnalysisThresholds.default
    /// Frames whose header claims more pixels are refused before any pixel buffer is allocated.
    public var maxPixels = 40_000_000

    public init() {}

    /// Every key, its default and meaning (printed by `CaptureService --help`).
    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_CAPTURE_THRESHOLDS", "", "path of a JSON file overriding any analysis thresholds "
                         + "(docs/capture.md); unset: the documented defaults"),
        ConfigurationKey("KYC_CAPTURE_MAX_PIXELS", "40000000", "largest frame (width × height) analysed"),
    ]

    /// Reads the keys; an unreadable or invalid thresholds file is a configuration error naming the file and key.
    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws
        -> CaptureServiceConfiguration
    {
        var env = environment
        var config = CaptureServiceConfiguration()
        config.maxPixels = env.int("KYC_CAPTURE_MAX_PIXELS", default: config.maxPixels, range: 65_536...400_000_000)
        let path = env.string("KYC_CAPTURE_THRESHOLDS", default: "")
        try env.validate()
        if !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CaptureConfigurationError(description: "KYC_CAPTURE_THRESHOLDS: cannot read \(path)")
            }
            do {
                config.thresholds = try AnalysisThresholds(json: Array(data))
            } catch {
                throw CaptureConfigurationError(description: "KYC_CAPTURE_THRESHOLDS: \(path): \(error)")
            }
        }
        return config
    }
}

/// A CaptureService setting that cannot be used.
public struct CaptureConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
