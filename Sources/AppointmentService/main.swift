// AppointmentService: call types and video-call appointments, served to the gateway's broker.
import AppointmentKit
import KYCCore
import Messaging
import Storage

ServiceProcess.run(executable: "AppointmentService", service: AppointmentHandlers.service,
                   summary: "call types and video-call appointments") { configuration, logger in
    let database = try Database(path: configuration.databasePath("appointment"))
    let handlers = AppointmentHandlers(catalog: try CallTypeCatalog(database: database))
    return handlers.router(version: KYCSuiteVersion.current, logger: logger)
}
