// AppointmentService: call types, their calendars and video-call appointments, served to the gateway's broker.
// Several processes may serve the same database file: bookings are serialised by SQLite transactions.
import AppointmentKit
import KYCCore
import Messaging
import Storage

ServiceProcess.run(executable: "AppointmentService", service: AppointmentHandlers.service,
                   summary: "call types, calendars and video-call appointments") { configuration, logger in
    let database = try Database(path: configuration.databasePath("appointment"))
    return try AppointmentHandlers(database: database).router(version: KYCSuiteVersion.current, logger: logger)
}
