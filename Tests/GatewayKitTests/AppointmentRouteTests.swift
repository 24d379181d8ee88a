import Credentials
import Foundation
@testable import GatewayKit
import HTTPServer
import KYCCore
import KYCMessages
import Messaging
import Synchronization
import Testing
import TestSupport

/// A dispatcher that records each envelope and answers with a canned reply, so the JSON ⇄ protobuf translation
/// and the access rules of the appointment routes are checked without sockets.
final class RecordingDispatcher: ServiceDispatcher {
    private let state = Mutex<(envelopes: [RequestEnvelope], reply: ReplyEnvelope?)>(([], nil))

    func answer(_ reply: ReplyEnvelope) { state.withLock { $0.reply = reply } }
    var envelopes: [RequestEnvelope] { state.withLock { $0.envelopes } }

    func dispatch(service: String, envelope: RequestEnvelope,
                  completion: @escaping @Sendable (ReplyEnvelope) -> Void) {
        let reply = state.withLock { state -> ReplyEnvelope? in
            state.envelopes.append(envelope)
            return state.reply
        }
        completion(reply ?? .failure(requestID: envelope.requestID, status: .unavailable, reason: "no reply set"))
    }

    func snapshot() -> BrokerSnapshot { BrokerSnapshot() }
}

@Suite("Appointment routes")
struct AppointmentRouteTests {
    /// The credential store's data directory; removed when the test's instance goes away.
    let directory: TemporaryDirectory
    let credentials: CredentialStore
    let dispatcher = RecordingDispatcher()
    let application: GatewayApplication
    let apiKey: String
    let adminKey: String

    static let appointment = Appointment(
        uid: "u-1", callType: "onboarding", callTypeName: "Remote onboarding video call",
        identityType: "T.C. Kimlik Kartı", identityNo: "10000000146", name: "Ayşe", surname: "Yılmaz",
        phone: "+905321234567", email: "ayse@example.com", startUnixMs: 1, endUnixMs: 2,
        startDate: "2026-12-02T10:00:00+03:00", endDate: "2026-12-02T10:15:00+03:00", isPriorityCustomer: true,
        status: "active")

    init() throws {
        directory = try TemporaryDirectory("appt-routes")
        credentials = try CredentialStore(dataDirectory: directory.file("data"))
        application = GatewayApplication(configuration: GatewayConfiguration(), credentials: credentials,
                                         dispatcher: dispatcher,
                                         logger: Logger(service: "test", level: .critical, sink: InMemoryLogSink()))
        apiKey = try credentials.createAPIKey(tenant: "acme", admin: false).1
        adminKey = try credentials.createAPIKey(tenant: "acme", admin: true).1
    }

    func session(scopes: [String] = [Scope.appointments]) throws -> String {
        try credentials.openSession(tenant: "acme", createdBy: "test",
                                    identity: SessionIdentity(identityType: "TCKN", identityNo: "10000000146",
                                                              name: "Ayşe", surname: "Yılmaz",
                                                              isPriorityCustomer: false),
                                    scopes: scopes, ttlSeconds: 600, businessUID: nil).token
    }

    func call(_ method: String, _ path: String, query: [(String, String)] = [], token: String?, body: String = "")
        async -> (status: Int, json: JSONValue) {
        var headers: [String: String] = [:]
        if let token { headers["authorization"] = "Bearer \(token)" }
        let request = HTTPRequest(method: method, path: path, queryItems: query.map { (name: $0.0, value: $0.1) },
                                  headers: headers, body: Array(body.utf8))
        let response: HTTPResponse = await withCheckedContinuation { continuation in
            application.handle(request) { continuation.resume(returning: $0) }
        }
        return (response.status, (try? JSONValue.parseObject(response.body)) ?? .null)
    }

    static let bookingBody = """
        {"callType":"onboarding","date":"2026-12-02","startTime":"10:00","identityType":"T.C. Kimlik Kartı",
         "identityNo":"10000000146","name":"Ayşe","surname":"Yılmaz","phone":"0532 123 45 67",
         "email":"ayse@example.com","uId":"u-1","isPriorityCustomer":true}
        """

    @Test func bookingIsTranslatedAndAnsweredWithTheSDKFieldNames() async throws {
        dispatcher.answer(.success(requestID: "r", payload: BookAppointmentReply(appointment: Self.appointment,
                                                                                 created: true).serialized()))
        let result = await call("POST", "/v1/appointments", token: apiKey, body: Self.bookingBody)
        #expect(result.status == 201)
        let sent = try BookAppointmentRequest(serialized: try #require(dispatcher.envelopes.last).payload)
        #expect(sent == BookAppointmentRequest(callType: "onboarding", date: "2026-12-02", startTime: "10:00",
                                               identityType: "T.C. Kimlik Kartı", identityNo: "10000000146",
                                               name: "Ayşe", surname: "Yılmaz", phone: "0532 123 45 67",
                                               email: "ayse@example.com", uid: "u-1", prioritySpecified: true,
                                               isPriorityCustomer: true))
        #expect(dispatcher.envelopes.last?.method == "appointment.Book")
        guard case let .object(fields) = result.json else { Issue.record("not an object"); return }
        #expect(Set(fields.map(\.0)) == ["uId", "callType", "callTypeValue", "identityType", "identityNo", "name", "surname",
                                    "phone", "email", "startDate", "endDate", "isPriorityCustomer", "status"])
        #expect(result.json["startDate"] == .string("2026-12-02T10:00:00+03:00"))
        #expect(result.json["isPriorityCustomer"] == .bool(true))
    }

    @Test func aRepeatedUIDAnswers200WithTheEarlierAppointment() async throws {
        dispatcher.answer(.success(requestID: "r", payload: BookAppointmentReply(appointment: Self.appointment,
                                                                                 created: false).serialized()))
        let result = await call("POST", "/v1/appointments", token: apiKey, body: Self.bookingBody)
        #expect(result.status == 200)
        #expect(result.json["uId"] == .string("u-1"))
    }

    @Test func aMobileBodyCannotClaimPriority() async throws {
        dispatcher.answer(.success(requestID: "r", payload: BookAppointmentReply(appointment: Self.appointment,
                                                                                 created: true).serialized()))
        _ = await call("POST", "/v1/appointments", token: try session(), body: Self.bookingBody)
        let envelope = try #require(dispatcher.envelopes.last)
        let sent = try BookAppointmentRequest(serialized: envelope.payload)
        #expect(sent.prioritySpecified == false)
        #expect(sent.isPriorityCustomer == false)
        #expect(envelope.principal.kind == .session)
        #expect(envelope.principal.identity?.identityNo == "10000000146")
    }

    @Test(arguments: [
        (#"{"date":20261202}"#, "date"), (#"{"uId":["a"]}"#, "uId"), (#"{"isPriorityCustomer":"yes"}"#, "isPriorityCustomer"),
        (#"{"startTime":"10:00:00"}"#, "startTime"),
    ])
    func wrongJSONTypesAre422BeforeReachingTheService(body: String, field: String) async throws {
        let result = await call("POST", "/v1/appointments", token: apiKey, body: body)
        #expect(result.status == 422)
        #expect(result.json["error"]?["field"] == .string(field))
        #expect(dispatcher.envelopes.isEmpty)
    }

    @Test func serviceFailuresKeepTheirCodes() async throws {
        dispatcher.answer(.failure(requestID: "r", status: .failedPrecondition, reason: "full", errorCode: "slot_full"))
        let full = await call("POST", "/v1/appointments", token: apiKey, body: Self.bookingBody)
        #expect(full.status == 409)
        #expect(full.json["error"]?["code"] == .string("slot_full"))
        dispatcher.answer(.failure(requestID: "r", status: .permissionDenied, reason: "no",
                                   errorCode: "identity_mismatch"))
        let mismatch = await call("GET", "/v1/appointments", query: [("identityNo", "1")], token: try session())
        #expect(mismatch.status == 403)
        #expect(mismatch.json["error"]?["code"] == .string("identity_mismatch"))
    }

    @Test func accessRules() async throws {
        let noScope = try session(scopes: [Scope.capture])
        #expect(await call("GET", "/v1/appointments", token: noScope).status == 403)
        #expect(await call("GET", "/v1/agenda", query: [("callType", "onboarding"), ("date", "2026-12-02")],
                           token: try session()).status == 403)
        #expect(await call("GET", "/v1/admin/call-types", token: apiKey).status == 403)
        #expect(await call("PUT", "/v1/admin/call-types/onboarding/calendar", token: apiKey, body: "{}").status == 403)
        #expect(await call("DELETE", "/v1/appointments/u-1", token: nil).status == 401)
        #expect(dispatcher.envelopes.isEmpty)
    }

    @Test func availabilityQueryAndReply() async throws {
        dispatcher.answer(.success(requestID: "r", payload: AvailabilityReply(timeZone: "Europe/Istanbul", slots: [
            AvailableSlot(date: "2026-12-02", startTime: "10:00", endTime: "10:15", count: 1, capacity: 2),
        ]).serialized()))
        let result = await call("GET", "/v1/appointments/available",
                                query: [("callType", "onboarding"), ("startDate", "2026-12-02"),
                                        ("endDate", "2026-12-03"), ("includeFull", "true")], token: try session())
        #expect(result.status == 200)
        #expect(result.json["slots"] == .array([.object([("date", .string("2026-12-02")), ("startTime", .string("10:00")),
                                                         ("endTime", .string("10:15")), ("count", .integer(1))])]))
        let sent = try AvailabilityRequest(serialized: try #require(dispatcher.envelopes.last).payload)
        #expect(sent == AvailabilityRequest(callType: "onboarding", startDate: "2026-12-02", endDate: "2026-12-03",
                                            includeFull: true))
        let bad = await call("GET", "/v1/appointments/available", query: [("includeFull", "maybe")], token: apiKey)
        #expect(bad.status == 422)
        #expect(bad.json["error"]?["field"] == .string("includeFull"))
    }

    @Test func cancelRoutesTranslateBothForms() async throws {
        dispatcher.answer(.success(requestID: "r", payload: CancelAppointmentReply(cancelled: false, appointment: nil)
            .serialized()))
        let byIdentity = await call("POST", "/v1/appointments/cancel", token: apiKey,
                                    body: #"{"callType":"onboarding","identityType":"TCKN","identityNo":"10000000146"}"#)
        #expect(byIdentity.json == .object([("cancelled", .bool(false))]))
        #expect(try CancelAppointmentRequest(serialized: dispatcher.envelopes.last!.payload)
            == CancelAppointmentRequest(callType: "onboarding", identityType: "TCKN", identityNo: "10000000146"))
        _ = await call("DELETE", "/v1/appointments/u-9", token: apiKey)
        #expect(try CancelAppointmentRequest(serialized: dispatcher.envelopes.last!.payload).uid == "u-9")
        let missing = await call("POST", "/v1/appointments/cancel", token: apiKey, body: "{}")
        #expect(missing.status == 422)
        #expect(missing.json["error"]?["field"] == .string("callType"))
    }

    @Test func calendarBodiesAreTranslatedAndCheckedForCompleteness() async throws {
        let settings = CalendarSettings(timeZone: "Europe/Istanbul",
                                        workingHours: [WorkingHours(weekday: 1, opens: "09:00", closes: "12:00"),
                                                       WorkingHours(weekday: 6, opens: "10:00", closes: "14:00")],
                                        slotMinutes: 20, capacity: 4, closedDates: ["2026-12-31"], horizonDays: 14,
                                        minimumNoticeMinutes: 120, cancellationCutoffMinutes: 60)
        dispatcher.answer(.success(requestID: "r", payload: CalendarReply(callType: "onboarding", calendar: settings,
                                                                          customized: true).serialized()))
        let body = """
            {"timeZone":"Europe/Istanbul","workingHours":[{"weekday":"mon","opens":"09:00","closes":"12:00"},
             {"weekday":6,"opens":"10:00","closes":"14:00"}],"slotMinutes":20,"capacity":4,
             "closedDates":["2026-12-31"],"horizonDays":14,"minimumNoticeMinutes":120,"cancellationCutoffMinutes":60}
            """
        let result = await call("PUT", "/v1/admin/call-types/onboarding/calendar", query: [("force", "true")],
                                token: adminKey, body: body)
        #expect(result.status == 200)
        let sent = try CalendarRequest(serialized: try #require(dispatcher.envelopes.last).payload)
        #expect(sent == CalendarRequest(callType: "onboarding", calendar: settings, force: true))
        #expect(result.json["workingHours"] == .array([
            .object([("weekday", .string("MON")), ("opens", .string("09:00")), ("closes", .string("12:00"))]),
            .object([("weekday", .string("SAT")), ("opens", .string("10:00")), ("closes", .string("14:00"))]),
        ]))
        let count = dispatcher.envelopes.count
        let incomplete = await call("PUT", "/v1/admin/call-types/onboarding/calendar", token: adminKey,
                                    body: #"{"timeZone":"Europe/Istanbul","workingHours":[]}"#)
        #expect(incomplete.status == 422)
        #expect(incomplete.json["error"]?["code"] == .string("required"))
        let badDay = await call("PUT", "/v1/admin/call-types/onboarding/calendar", token: adminKey,
                                body: #"{"workingHours":[{"weekday":"FUNDAY"}]}"#)
        #expect(badDay.json["error"]?["field"] == .string("workingHours[0].weekday"))
        #expect(dispatcher.envelopes.count == count)
    }

    @Test func theAgendaIsGroupedBySlot() async throws {
        var second = Self.appointment
        second.uid = "u-2"
        second.isPriorityCustomer = false
        var later = Self.appointment
        later.uid = "u-3"
        later.startUnixMs = 5
        later.startDate = "2026-12-02T11:00:00+03:00"
        later.endDate = "2026-12-02T11:15:00+03:00"
        dispatcher.answer(.success(requestID: "r", payload: AgendaReply(timeZone: "Europe/Istanbul",
                                                                        appointments: [Self.appointment, second, later])
            .serialized()))
        let result = await call("GET", "/v1/agenda", query: [("callType", "onboarding"), ("date", "2026-12-02")],
                                token: apiKey)
        #expect(result.status == 200)
        let slots = try #require(result.json["slots"]?.arrayValue)
        #expect(slots.map { $0["startTime"] } == [.string("10:00"), .string("11:00")])
        #expect(slots.first?["endTime"] == .string("10:15"))
        #expect(slots.first?["appointments"]?.arrayValue?.map { $0["uId"] } == [.string("u-1"), .string("u-2")])
    }
}
