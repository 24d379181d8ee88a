import Foundation
import Testing

/// `kycctl up`: the whole stack as child processes, a crashed service restarted, everything stopped on SIGTERM.
@Suite("kycctl up", .serialized)
struct LocalStackEndToEndTests {
    @Test func upServesRestartsACrashedServiceAndStopsEverything() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let up = try stack.start("kycctl", arguments: ["up"])
        // Two minutes, as `waitForWorkers`: in a full `make test` on 2 cores beside the accuracy suites, six
        // processes starting here were once not all ready within one (session 8); alone the stack is ready in ~1.5 s.
        try await stack.waitUntil(seconds: 120, "the stack to be ready") {
            (try? await stack.request("GET", "/readyz"))?.status == 200
        }
        #expect(try await stack.request("GET", "/v1/call-types", token: key).status == 200)

        let children = StackHarness.children(of: up.processIdentifier)
        #expect(Set(children.map(\.name)) == ["Gateway", "AppointmentService", "KYBService", "SigningService",
                                             "CaptureService", "WebhookService"])
        let appointment = try #require(children.first { $0.name == "AppointmentService" })
        kill(appointment.pid, SIGKILL)

        try await stack.waitUntil("a new AppointmentService") {
            StackHarness.children(of: up.processIdentifier)
                .contains { $0.name == "AppointmentService" && $0.pid != appointment.pid }
        }
        try await stack.waitUntil("call types served again") {
            (try? await stack.request("GET", "/v1/call-types", token: key))?.status == 200
        }

        let running = StackHarness.children(of: up.processIdentifier).map(\.pid)
        up.terminate()
        up.waitUntilExit()
        #expect(up.terminationStatus == 0)
        for pid in running { #expect(!StackHarness.isAlive(pid), "child \(pid) outlived kycctl up") }
    }
}
