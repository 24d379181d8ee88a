import Credentials
import KYCMessages

/// Appointment routes (issue #3) → AppointmentService; `/v1/call-types` lives in CallTypeRoutes and the admin
/// routes in AppointmentAdminRoutes. Mobile sessions need the `appointments` scope and act only for their own
/// identity (the service answers 403 `identity_mismatch` otherwise); the agenda is for backends only.
enum AppointmentRoutes {
    static let service = "appointment"

    static func routes() -> [Route] {
        let customer = RouteAccess.apiKeyOrSession(sessionScope: Scope.appointments)
        return [
            Route("GET", "/v1/appointments", access: customer, action: .service(ServiceCall(
                service: service, method: "appointment.ListAppointments",
                buildPayload: { context in
                    let query = context.request.query
                    return ListAppointmentsRequest(
                        identityType: try AppointmentQuery.string(query, "identityType", maxLength: 64),
                        identityNo: try AppointmentQuery.string(query, "identityNo", maxLength: 64)).serialized()
                },
                renderReply: { payload, _ in
                    let reply = try ListAppointmentsReply(serialized: payload)
                    return .object([("appointments", .array(reply.appointments.map(AppointmentJSON.appointment)))])
                }))),
            Route("GET", "/v1/appointments/available", access: customer, action: .service(ServiceCall(
                service: service, method: "appointment.Availability",
                buildPayload: { context in
                    let query = context.request.query
                    return AvailabilityRequest(
                        callType: try AppointmentQuery.string(query, "callType", maxLength: 64),
                        startDate: try AppointmentQuery.string(query, "startDate", maxLength: 40),
                        endDate: try AppointmentQuery.string(query, "endDate", maxLength: 40),
                        includeFull: try AppointmentQuery.bool(query, "includeFull")).serialized()
                },
                renderReply: { payload, _ in
                    AppointmentJSON.availability(try AvailabilityReply(serialized: payload))
                }))),
            Route("POST", "/v1/appointments", access: customer, action: .service(ServiceCall(
                service: service, method: "appointment.Book",
                buildPayload: { context in try bookingRequest(context).serialized() },
                renderResponse: { payload, _ in
                    // 201 for a new booking; 200 when the same uId and body booked it before.
                    let reply = try BookAppointmentReply(serialized: payload)
                    return .json(AppointmentJSON.appointment(reply.appointment), status: reply.created ? 201 : 200)
                }))),
            Route("POST", "/v1/appointments/cancel", access: customer, action: .service(ServiceCall(
                service: service, method: "appointment.Cancel",
                buildPayload: { context in
                    let reader = JSONFieldReader(try context.jsonBody())
                    return CancelAppointmentRequest(
                        callType: try reader.requiredString("callType", maxLength: 64),
                        identityType: try reader.string("identityType", maxLength: 64) ?? "",
                        identityNo: try reader.string("identityNo", maxLength: 64) ?? "").serialized()
                },
                renderReply: { payload, _ in
                    let reply = try CancelAppointmentReply(serialized: payload)
                    return .object([("cancelled", .bool(reply.cancelled))]
                        + (reply.appointment.map { [("appointment", AppointmentJSON.appointment($0))] } ?? []))
                }))),
            Route("DELETE", "/v1/appointments/{uId}", access: customer, action: .service(ServiceCall(
                service: service, method: "appointment.Cancel",
                buildPayload: { context in
                    CancelAppointmentRequest(uid: context.pathParameters["uId"] ?? "").serialized()
                },
                renderReply: { payload, _ in
                    let reply = try CancelAppointmentReply(serialized: payload)
                    return .object([("cancelled", .bool(reply.cancelled))]
                        + (reply.appointment.map { [("appointment", AppointmentJSON.appointment($0))] } ?? []))
                }))),
            Route("GET", "/v1/agenda", access: .apiKey(scope: Scope.backend), action: .service(ServiceCall(
                service: service, method: "appointment.Agenda",
                buildPayload: { context in
                    let query = context.request.query
                    return AgendaRequest(callType: try AppointmentQuery.string(query, "callType", maxLength: 64),
                                         date: try AppointmentQuery.string(query, "date", maxLength: 10)).serialized()
                },
                renderReply: { payload, context in
                    AppointmentJSON.agenda(try AgendaReply(serialized: payload),
                                           callType: context.request.query["callType"] ?? "",
                                           date: context.request.query["date"] ?? "")
                }))),
        ] + AppointmentAdminRoutes.routes()
    }

    /// The booking form as the mobile SDKs send it. `isPriorityCustomer` is honoured only from an API key (the
    /// customer backend); from a mobile session it is ignored and the session's backend-declared flag applies.
    static func bookingRequest(_ context: RouteContext) throws -> BookAppointmentRequest {
        let reader = JSONFieldReader(try context.jsonBody())
        let priority = try reader.bool("isPriorityCustomer")
        let fromBackend = context.caller?.kind == .apiKey
        return BookAppointmentRequest(
            callType: try reader.string("callType", maxLength: 64) ?? "",
            date: try reader.string("date", maxLength: 10) ?? "",
            startTime: try reader.string("startTime", maxLength: 5) ?? "",
            identityType: try reader.string("identityType", maxLength: 64) ?? "",
            identityNo: try reader.string("identityNo", maxLength: 64) ?? "",
            name: try reader.string("name", maxLength: 100) ?? "",
            surname: try reader.string("surname", maxLength: 100) ?? "",
            phone: try reader.string("phone", maxLength: 64) ?? "",
            email: try reader.string("email", maxLength: 254) ?? "",
            uid: try reader.string("uId", maxLength: 64) ?? "",
            prioritySpecified: fromBackend && priority != nil,
            isPriorityCustomer: fromBackend && priority == true)
    }
}

/// Query parameters with the same 422 errors as body fields.
enum AppointmentQuery {
    static func string(_ query: [String: String], _ name: String, maxLength: Int) throws -> String {
        let value = query[name] ?? ""
        guard value.count <= maxLength else {
            throw APIError.invalidField(name, "too_long", "\(name) must be at most \(maxLength) characters")
        }
        return value
    }

    static func bool(_ query: [String: String], _ name: String) throws -> Bool {
        switch query[name]?.lowercased() {
        case nil, "", "false", "0": return false
        case "true", "1": return true
        default: throw APIError.invalidField(name, "invalid_type", "\(name) must be true or false")
        }
    }
}
