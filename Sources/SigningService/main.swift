// SigningService: document signing with evidence; answers signing.Describe until issue #6 adds its operations.
import KYCCore
import Messaging

ServiceProcess.run(executable: "SigningService", service: "signing", summary: "document signing with evidence; answers signing.Describe until issue #6 adds its operations") { _, logger in
    ServiceRouter(service: "signing", version: KYCSuiteVersion.current, logger: logger)
}
