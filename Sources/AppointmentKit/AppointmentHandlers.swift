import KYCCore
import KYCMessages
import Messaging
import Storage

/// The AppointmentService's operations, as functions from a request envelope to a reply payload, registered on a
/// `ServiceRouter` that the worker runtime serves. Every read and write is scoped by `envelope.tenant`.
public struct AppointmentHandlers: Sendable {
    public static let service = "appointment"

    let catalog: CallTypeCatalog
    let book: AppointmentBook
    let administration: AppointmentAdministration

    public init(catalog: CallTypeCatalog, book: AppointmentBook, administration: AppointmentAdministration) {
        self.catalog = catalog
        self.book = book
        self.administration = administration
    }

    /// Handlers over one database, with `now` as the clock (injectable for tests).
    public init(database: Database, now: @escaping @Sendable () -> Int64 = { WallClock.nowMilliseconds() }) throws {
        self.init(catalog: try CallTypeCatalog(database: database),
                  book: try AppointmentBook(database: database, now: now),
                  administration: try AppointmentAdministration(database: database, now: now))
    }

    /// A router serving every appointment operation.
    public func router(version: String, logger: Logger) -> ServiceRouter {
        var router = ServiceRouter(service: Self.service, version: version, logger: logger)
        router.register("appointment.ListCallTypes", listCallTypes)
        router.register("appointment.AdminGetCallTypes") { envelope in
            try administration.callTypes(tenant: envelope.tenant).serialized()
        }
        router.register("appointment.AdminPutCallTypes") { envelope in
            try administration.putCallTypes(try decode(envelope, as: PutCallTypesRequest.self), tenant: envelope.tenant)
                .serialized()
        }
        router.register("appointment.AdminGetCalendar") { envelope in
            try administration.calendar(try decode(envelope, as: CalendarRequest.self), tenant: envelope.tenant)
                .serialized()
        }
        router.register("appointment.AdminPutCalendar") { envelope in
            try administration.putCalendar(try decode(envelope, as: CalendarRequest.self), tenant: envelope.tenant)
                .serialized()
        }
        router.register("appointment.ListAppointments") { envelope in
            try book.list(try decode(envelope, as: ListAppointmentsRequest.self), tenant: envelope.tenant,
                          principal: envelope.principal).serialized()
        }
        router.register("appointment.Availability") { envelope in
            try book.availability(try decode(envelope, as: AvailabilityRequest.self), tenant: envelope.tenant)
                .serialized()
        }
        router.register("appointment.Book") { envelope in
            try book.book(try decode(envelope, as: BookAppointmentRequest.self), tenant: envelope.tenant,
                          principal: envelope.principal).serialized()
        }
        router.register("appointment.Cancel") { envelope in
            try book.cancel(try decode(envelope, as: CancelAppointmentRequest.self), tenant: envelope.tenant,
                            principal: envelope.principal).serialized()
        }
        router.register("appointment.Agenda") { envelope in
            try book.agenda(try decode(envelope, as: AgendaRequest.self), tenant: envelope.tenant).serialized()
        }
        return router
    }

    /// `appointment.ListCallTypes`: the caller's tenant's call types for the requested handler (KYC by default).
    public func listCallTypes(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(envelope, as: ListCallTypesRequest.self)
        let handlerName = request.handler.isEmpty ? "KYC" : request.handler.uppercased()
        guard let handler = CallTypeCatalog.Handler(rawValue: handlerName) else {
            throw ServiceError.invalidArgument(field: "handler", code: "invalid_handler",
                                               message: "handler must be KYC or KYB")
        }
        return ListCallTypesReply(callTypes: try catalog.callTypes(tenant: envelope.tenant, handler: handler))
            .serialized()
    }

    private func decode<Message: WireMessage>(_ envelope: RequestEnvelope, as type: Message.Type) throws -> Message {
        do {
            return try Message(serialized: envelope.payload)
        } catch {
            throw AppointmentFailure.malformed(String(describing: Message.self))
        }
    }
}
