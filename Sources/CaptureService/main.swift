// CaptureService: document and selfie frame analysis with auto-capture, served to the gateway's broker.
// Keeps no per-stream memory: the tracker state travels with each request (sealed with a key every process of the
// stack shares), so several processes can serve a stream.
import CaptureKit
import KYCCore
import Messaging

handleHelpFlag(executable: "CaptureService",
               summary: "document and selfie frame analysis with auto-capture (capture.AnalyzeFrame)",
               keys: ServiceProcessConfiguration.keys + CaptureServiceConfiguration.keys)
var captureConfiguration = CaptureServiceConfiguration()
exitOnConfigurationError("CaptureService") { captureConfiguration = try CaptureServiceConfiguration.fromEnvironment() }
let settings = captureConfiguration

ServiceProcess.run(executable: "CaptureService", service: CaptureHandlers.service,
                   summary: "document and selfie frame analysis with auto-capture") { configuration, logger in
    // Every process serving the same streams must seal with the same key: the configured one, or the data
    // directory's key file (created by whichever process of the stack starts first).
    let keys = try settings.stateKeys(dataDirectory: configuration.dataDirectory)
    logger.info("tracker state key", [
        "key.source": settings.stateKey != nil ? "KYC_CAPTURE_STATE_KEY"
            : TrackerStateKeyFile.path(inDirectory: configuration.dataDirectory),
        "key.previous": keys.previous != nil ? "set" : "unset",
        "state.max_age_s": String(settings.stateMaxAgeSeconds),
    ])
    return CaptureHandlers(configuration: settings, stateKeys: keys, workerThreads: configuration.workerThreads)
        .router(version: KYCSuiteVersion.current, logger: logger)
}
