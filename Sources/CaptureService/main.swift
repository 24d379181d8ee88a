// CaptureService: document and selfie frame analysis; answers capture.Describe until issue #5 adds its operations.
import KYCCore
import Messaging

ServiceProcess.run(executable: "CaptureService", service: "capture", summary: "document and selfie frame analysis; answers capture.Describe until issue #5 adds its operations") { _, logger in
    ServiceRouter(service: "capture", version: KYCSuiteVersion.current, logger: logger)
}
