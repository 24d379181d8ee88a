import AppointmentKit
import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Synchronization
import Testing
import TestSupport

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let milliseconds: Atomic<Int64>

    init(_ iso: String) { milliseconds = Atomic(TestClock.parse(iso)) }

    var now: Int64 { milliseconds.load(ordering: .relaxed) }
    func set(_ iso: String) { milliseconds.store(TestClock.parse(iso), ordering: .relaxed) }

    static func parse(_ iso: String) -> Int64 {
        let formatter = ISO8601DateFormatter()
        return Int64(formatter.date(from: iso)!.timeIntervalSince1970 * 1000)
    }
}

/// A service over a fresh database file, driven through its router as the broker would.
struct AppointmentFixture {
    // Tuesday 1 December 2026, 10:00 in Istanbul.
    let clock = TestClock("2026-12-01T07:00:00Z")
    /// Holds the database file; removed when the last copy of the fixture goes away.
    let directory: TemporaryDirectory
    let path: String
    let router: ServiceRouter

    static let backend = Principal(kind: .apiKey, id: "key_backend", scopes: ["backend"])
    static let admin = Principal(kind: .apiKey, id: "key_admin", scopes: ["backend", "admin"])

    init() throws {
        directory = try TemporaryDirectory("appointments")
        path = directory.file("appointments.sqlite")
        let clock = self.clock
        router = try AppointmentHandlers(database: Database(path: path), now: { clock.now })
            .router(version: "test", logger: Logger(service: "test", sink: InMemoryLogSink()))
    }

    /// A router over the same file, as after a restart.
    func reopened() throws -> ServiceRouter {
        let clock = self.clock
        return try AppointmentHandlers(database: Database(path: path), now: { clock.now })
            .router(version: "test", logger: Logger(service: "test", sink: InMemoryLogSink()))
    }

    func call(_ method: String, _ payload: [UInt8], principal: Principal = backend, tenant: String = "acme",
              router: ServiceRouter? = nil) -> ReplyEnvelope {
        (router ?? self.router).handle(RequestEnvelope(requestID: "r-\(UUID().uuidString)", tenant: tenant,
                                                       principal: principal, method: "appointment.\(method)",
                                                       payload: payload), now: 0)
    }

    static func session(_ identityNo: String, type: String = "TCKN", priority: Bool = false) -> Principal {
        Principal(kind: .session, id: "ses_\(identityNo)", scopes: ["appointments"],
                  identity: Identity(identityType: type, identityNo: identityNo, name: "Ayşe", surname: "Yılmaz",
                                     isPriorityCustomer: priority))
    }

    static func booking(uid: String = "u-1", identityNo: String = "10000000146", identityType: String = "TCKN",
                        date: String = "2026-12-02", time: String = "10:00",
                        callType: String = "onboarding") -> BookAppointmentRequest {
        BookAppointmentRequest(callType: callType, date: date, startTime: time, identityType: identityType,
                               identityNo: identityNo, name: "Ayşe", surname: "Yılmaz", phone: "0532 123 45 67",
                               email: "ayse@example.com", uid: uid)
    }

    func book(_ request: BookAppointmentRequest, principal: Principal = backend, tenant: String = "acme")
        -> ReplyEnvelope {
        call("Book", request.serialized(), principal: principal, tenant: tenant)
    }

    func bookedAppointment(_ request: BookAppointmentRequest, principal: Principal = backend) throws -> Appointment {
        let reply = book(request, principal: principal)
        try #require(reply.status == .ok, "\(reply.effectiveErrorCode): \(reply.reason)")
        return try BookAppointmentReply(serialized: reply.payload).appointment
    }

    func availability(_ request: AvailabilityRequest) throws -> AvailabilityReply {
        let reply = call("Availability", request.serialized())
        try #require(reply.status == .ok, "\(reply.effectiveErrorCode): \(reply.reason)")
        return try AvailabilityReply(serialized: reply.payload)
    }

    func putCalendar(_ settings: CalendarSettings, callType: String = "onboarding", force: Bool = false)
        -> ReplyEnvelope {
        call("AdminPutCalendar", CalendarRequest(callType: callType, calendar: settings, force: force).serialized(),
             principal: Self.admin)
    }

    /// Valid T.C. identity numbers (checksum digits computed), distinct for distinct seeds.
    static func identityNumber(_ seed: Int) -> String {
        var digits = [1] + String(format: "%08d", seed).map { Int(String($0))! }
        let odd = digits[0] + digits[2] + digits[4] + digits[6] + digits[8]
        let even = digits[1] + digits[3] + digits[5] + digits[7]
        digits.append(((odd * 7 - even) % 10 + 10) % 10)
        digits.append(digits.reduce(0, +) % 10)
        return digits.map(String.init).joined()
    }
}
