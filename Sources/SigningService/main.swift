// SigningService: documents signed on the device, evidence sealed by the platform, `signing.completed` webhooks
// through the transactional outbox.
import KYCCore
import Messaging
import SigningKit
import Storage
import Webhooks

ServiceProcess.run(executable: "SigningService", service: "signing",
                   summary: "document signing from the device with verifiable evidence") { configuration, logger, background in
    let limits = try SigningLimits.fromEnvironment()
    let database = try Database(path: configuration.databasePath("signing"))
    let desk = try SigningDesk(database: database, limits: limits, logger: logger)
    background.add(OutboxRelay(database: database, service: "signing",
                               clientEndpoint: configuration.brokerClientEndpoint, logger: logger))
    var router = ServiceRouter(service: "signing", version: KYCSuiteVersion.current, logger: logger)
    SigningHandlers.register(desk, into: &router)
    return router
}
