// CaptureService: document and selfie frame analysis with auto-capture, served to the gateway's broker.
// Keeps no per-stream memory: the tracker state travels with each request, so several processes can serve a stream.
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
    CaptureHandlers(configuration: settings, workerThreads: configuration.workerThreads)
        .router(version: KYCSuiteVersion.current, logger: logger)
}
