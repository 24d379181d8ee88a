import KYCCore
import KYCMessages
import Synchronization
import Testing
@testable import Messaging

final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

struct HiddenFailure: Error { let detail = "password=hunter2 at /var/db" }

@Suite struct ServiceRouterTests {
    let sink = InMemoryLogSink()

    func router() -> ServiceRouter {
        var router = ServiceRouter(service: "KYB", version: "2.0.0", instance: "host:1", logger: testLogger(sink),
                                   startedUnixMs: 42)
        router.register("KYB.Echo") { $0.payload }
        router.register("KYB.Missing") { _ in throw ServiceError.notFound("no such company") }
        router.register("KYB.Invalid") { _ in
            throw ServiceError.invalidArgument(field: "taxNo", code: "bad_tax_no", message: "tax number is invalid")
        }
        router.register("KYB.Taken") { _ in throw ServiceError.conflict(code: "slot_taken", message: "taken") }
        router.register("KYB.Duplicate") { _ in
            throw ServiceError.conflict(code: "exists", message: "exists", resourceExists: true)
        }
        router.register("KYB.Crash") { _ in throw HiddenFailure() }
        return router
    }

    func call(_ method: String, deadline: Int64 = 0) -> ReplyEnvelope {
        router().handle(RequestEnvelope(requestID: "r-1", deadlineUnixMs: deadline, method: method, payload: [7]))
    }

    @Test func registeredHandlerReplyCarriesPayloadAndRequestID() {
        #expect(call("KYB.Echo") == .success(requestID: "r-1", payload: [7]))
    }

    @Test func unknownMethodIsUnimplemented() {
        let reply = call("KYB.Nope")
        #expect(reply.status == .unimplemented)
        #expect(reply.requestID == "r-1")
    }

    @Test func serviceErrorsMapToTheirStatusCodeAndViolations() {
        #expect(call("KYB.Missing").status == .notFound)
        #expect(call("KYB.Missing").reason == "no such company")
        let invalid = call("KYB.Invalid")
        #expect(invalid.status == .invalidArgument)
        #expect(invalid.errorCode == "bad_tax_no")
        #expect(invalid.violations == [FieldViolation(field: "taxNo", code: "bad_tax_no", message: "tax number is invalid")])
        #expect(call("KYB.Taken").status == .failedPrecondition)
        #expect(call("KYB.Taken").errorCode == "slot_taken")
        #expect(call("KYB.Duplicate").status == .alreadyExists)
    }

    @Test func otherErrorsBecomeInternalWithoutLeakingDetails() {
        let reply = call("KYB.Crash")
        #expect(reply.status == .internalError)
        #expect(reply.reason == "internal error")
        #expect(!reply.serialized().contains(Array("hunter2".utf8)))
        #expect(sink.lines.contains { $0.contains("hunter2") && $0.contains("request.id=r-1") })
    }

    @Test func passedDeadlineIsRefusedWithoutRunningTheHandler() {
        let ran = Flag()
        var router = ServiceRouter(service: "KYB", logger: testLogger())
        router.register("KYB.Work") { _ in
            ran.set()
            return []
        }
        let reply = router.handle(RequestEnvelope(requestID: "r", deadlineUnixMs: 1_000, method: "KYB.Work"),
                                  now: 1_000)
        #expect(reply.status == .deadlineExceeded)
        #expect(!ran.isSet)
        #expect(router.handle(RequestEnvelope(deadlineUnixMs: 1_001, method: "KYB.Work"), now: 1_000).status == .ok)
    }

    @Test func everyRouterAnswersDescribe() throws {
        let reply = call("KYB.Describe")
        #expect(reply.status == .ok)
        let description = try DescribeReply(serialized: reply.payload)
        #expect(description == DescribeReply(service: "KYB", version: "2.0.0", instance: "host:1",
                                             methods: ["KYB.Crash", "KYB.Describe", "KYB.Duplicate", "KYB.Echo",
                                                       "KYB.Invalid", "KYB.Missing", "KYB.Taken"],
                                             startedUnixMs: 42))
    }
}
