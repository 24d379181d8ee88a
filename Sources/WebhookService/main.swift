// WebhookService: per-tenant webhook endpoints and the durable delivery of every service's events (issue #6).
import KYCCore
import Messaging

ServiceProcess.run(executable: "WebhookService", service: "webhook",
                   summary: "webhook endpoints and event delivery; answers webhook.Describe until issue #6 lands") {
    _, logger in
    ServiceRouter(service: "webhook", version: KYCSuiteVersion.current, logger: logger)
}
