import AppointmentKit
import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Testing
import TestSupport

@Suite("Call types")
struct CallTypeTests {
    // Removed when the test's instance of the suite goes away.
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory("appointment")
        path = directory.file("appointments.sqlite")
    }

    func handlers() throws -> AppointmentHandlers {
        try AppointmentHandlers(database: Database(path: path))
    }

    func call(_ handler: String, tenant: String = "acme") throws -> ReplyEnvelope {
        let router = try handlers().router(version: "test", logger: Logger(service: "test", sink: InMemoryLogSink()))
        return router.handle(RequestEnvelope(requestID: "r1", tenant: tenant,
                                             deadlineUnixMs: Int64(Date().timeIntervalSince1970 * 1000) + 60_000,
                                             method: "appointment.ListCallTypes",
                                             payload: ListCallTypesRequest(handler: handler).serialized()))
    }

    @Test func kycIsTheDefaultHandlerAndListsSeededTypesInOrder() throws {
        let reply = try call("")
        #expect(reply.status == .ok)
        let types = try ListCallTypesReply(serialized: reply.payload).callTypes
        #expect(types.map(\.code) == ["onboarding", "reverification", "limit_increase"])
        #expect(types.allSatisfy { $0.handler == "KYC" })
    }

    @Test func kybHandlerListsTheCorporateTypes() throws {
        let types = try ListCallTypesReply(serialized: try call("kyb").payload).callTypes
        #expect(types.map(\.code) == ["corporate_onboarding", "representative"])
    }

    @Test func unknownHandlerIsAFieldViolation() throws {
        let reply = try call("VIP")
        #expect(reply.status == .invalidArgument)
        #expect(reply.violations.first?.field == "handler")
        #expect(reply.effectiveErrorCode == "invalid_handler")
    }

    @Test func malformedPayloadIsInvalidArgumentNotACrash() throws {
        let router = try handlers().router(version: "test", logger: Logger(service: "test", sink: InMemoryLogSink()))
        let reply = router.handle(RequestEnvelope(requestID: "r", tenant: "acme", method: "appointment.ListCallTypes",
                                                  payload: [0x0A, 0x09, 0x41]))
        #expect(reply.status == .invalidArgument)
    }

    @Test func seedsAreWrittenOnceAcrossRestarts() throws {
        _ = try handlers()
        _ = try handlers()
        let types = try ListCallTypesReply(serialized: try call("KYC").payload).callTypes
        #expect(types.count == 3)
    }
}
