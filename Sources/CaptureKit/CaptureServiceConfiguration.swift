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
    /// The key that seals tracker states (`KYC_CAPTURE_STATE_KEY`); nil: the data directory's key file
    /// (`TrackerStateKeyFile`), shared by every process of one stack.
    public var stateKey: [UInt8]? = nil
    /// A key from before a rotation, accepted for opening states only (`KYC_CAPTURE_STATE_PREVIOUS_KEY`).
    public var previousStateKey: [UInt8]? = nil
    /// Tracker states older than this are refused: a stream that paused longer starts over.
    public var stateMaxAgeSeconds = 30

    public init() {}

    /// The keys to seal tracker states with: `stateKey` when set, otherwise the key file in `dataDirectory`
    /// (created on first use), and `previousStateKey` for opening only.
    public func stateKeys(dataDirectory: String) throws(CaptureConfigurationError) -> TrackerStateKeys {
        if let stateKey { return try TrackerStateKeys(current: stateKey, previous: previousStateKey) }
        return try TrackerStateKeys(current: TrackerStateKeyFile.loadOrCreate(inDirectory: dataDirectory),
                                    previous: previousStateKey)
    }

    /// Every key, its default and meaning (printed by `CaptureService --help`).
    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_CAPTURE_THRESHOLDS", "", "path of a JSON file overriding any analysis thresholds "
                         + "(docs/capture.md); unset: the documented defaults"),
        ConfigurationKey("KYC_CAPTURE_MAX_PIXELS", "40000000", "largest frame (width × height) analysed"),
        ConfigurationKey("KYC_CAPTURE_STATE_KEY", "", "hex key (at least 64 digits = 32 bytes) sealing tracker "
                         + "states; give every CaptureService host the same one. Unset: a random key created once "
                         + "in <KYC_DATA_DIR>/\(TrackerStateKeyFile.fileName) (mode 0600), shared by the processes "
                         + "of one stack"),
        ConfigurationKey("KYC_CAPTURE_STATE_PREVIOUS_KEY", "", "hex key from before a key rotation: states sealed "
                         + "with it are still accepted (never used to seal); unset after max-age seconds"),
        ConfigurationKey("KYC_CAPTURE_STATE_MAX_AGE_SECONDS", "30", "tracker states older than this are refused "
                         + "(invalid_state): a stream paused longer starts over with an empty tracker_state"),
    ]

    /// Reads the keys; an unreadable or invalid thresholds file is a configuration error naming the file and key.
    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws
        -> CaptureServiceConfiguration
    {
        var env = environment
        var config = CaptureServiceConfiguration()
        config.maxPixels = env.int("KYC_CAPTURE_MAX_PIXELS", default: config.maxPixels, range: 65_536...400_000_000)
        let path = env.string("KYC_CAPTURE_THRESHOLDS", default: "")
        config.stateMaxAgeSeconds = env.int("KYC_CAPTURE_STATE_MAX_AGE_SECONDS", default: config.stateMaxAgeSeconds,
                                            range: 1...3600)
        var problems = env.problems
        // The key values are secrets: a problem names the key, never its value.
        for (name, target) in [("KYC_CAPTURE_STATE_KEY", \CaptureServiceConfiguration.stateKey),
                               ("KYC_CAPTURE_STATE_PREVIOUS_KEY", \CaptureServiceConfiguration.previousStateKey)] {
            let text = env.string(name, default: "")
            guard !text.isEmpty else { continue }
            guard let key = TrackerStateKeys.bytes(fromHex: text),
                  (TrackerStateKeys.minimumByteCount...TrackerStateKeys.maximumByteCount).contains(key.count) else {
                problems.append("\(name): expected \(2 * TrackerStateKeys.minimumByteCount)…"
                                + "\(2 * TrackerStateKeys.maximumByteCount) hex digits (an even number)")
                continue
            }
            config[keyPath: target] = key
        }
        if !problems.isEmpty {
            throw CaptureConfigurationError(description: "invalid configuration:\n  "
                                            + problems.joined(separator: "\n  "))
        }
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
