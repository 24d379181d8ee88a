// KYBService: corporate onboarding (KYB); answers kyb.Describe until issue #4 adds its operations.
import KYCCore
import Messaging

ServiceProcess.run(executable: "KYBService", service: "kyb", summary: "corporate onboarding (KYB); answers kyb.Describe until issue #4 adds its operations") { _, logger in
    ServiceRouter(service: "kyb", version: KYCSuiteVersion.current, logger: logger)
}
