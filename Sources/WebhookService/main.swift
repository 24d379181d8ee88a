// WebhookService: per-tenant webhook endpoints and the durable, signed delivery of every service's events (issue #6).
import KYCCore
import Messaging
import WebhookKit

ServiceProcess.run(executable: "WebhookService", service: WebhookHandlers.service,
                   summary: "webhook endpoints and signed, retried event delivery (webhooks.sqlite)") {
    (configuration: ServiceProcessConfiguration, logger: Logger, background: BackgroundWorkers) in
    let store = try WebhookStore(path: configuration.databasePath(WebhookSchema.databaseName), logger: logger)
    let dispatcher = WebhookDispatcher(store: store, logger: logger)
    background.add(dispatcher)
    var router = ServiceRouter(service: WebhookHandlers.service, version: KYCSuiteVersion.current, logger: logger)
    WebhookHandlers.register(on: &router, store: store, onWork: { dispatcher.wake() })
    return router
}
