import Foundation
import Testing

/// The real processes on loopback: gateway (HTTP + broker) and AppointmentService workers, driven over HTTP.
@Suite("Gateway end to end", .serialized)
struct GatewayEndToEndTests {
    @Test func healthAndAuthenticationAndCallTypes() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try await stack.startGateway(appointmentWorkers: 1)

        let health = try await stack.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(try await stack.request("GET", "/readyz").status == 200)

        let anonymous = try await stack.request("GET", "/v1/call-types", headers: ["X-Request-Id": "e2e-anon-1"])
        #expect(anonymous.status == 401)
        #expect(anonymous.errorCode == "unauthenticated")
        #expect(anonymous.errorField == "Authorization")
        #expect(anonymous.json["requestId"] as? String == "e2e-anon-1")
        #expect(anonymous.headers["x-request-id"] == "e2e-anon-1")

        let wrongKey = try await stack.request("GET", "/v1/call-types", token: "kyck_not-a-real-key")
        #expect(wrongKey.status == 401)
        #expect(wrongKey.errorCode == "invalid_credentials")

        let kyc = try await stack.request("GET", "/v1/call-types", token: key)
        #expect(kyc.status == 200)
        let kycTypes = try #require(kyc.json["callTypes"] as? [String: String])
        #expect(kycTypes["onboarding"] == "Remote onboarding video call")
        #expect(kycTypes.count == 3)
        #expect(kyc.headers["x-request-id"]?.hasPrefix("req_") == true)

        let kyb = try await stack.request("GET", "/v1/call-types?handler=KYB", token: key)
        #expect(kyb.status == 200)
        #expect((kyb.json["callTypes"] as? [String: String])?.keys.sorted() == ["corporate_onboarding", "representative"])

        let bad = try await stack.request("GET", "/v1/call-types?handler=VIP", token: key)
        #expect(bad.status == 422)
        #expect(bad.errorCode == "invalid_handler")
        #expect(bad.errorField == "handler")
    }

    @Test func mobileSessionsOpenWorkAndRevoke() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let otherTenantKey = try stack.createAPIKey(tenant: "globex")
        try await stack.startGateway(appointmentWorkers: 1)

        let opened = try await stack.request("POST", "/v1/sessions", token: key, body: """
            {"identity":{"identityType":"TCKN","identityNo":"10000000146","name":"Ayşe","surname":"Yılmaz"},
             "ttlSeconds":600}
            """)
        #expect(opened.status == 201)
        let token = try #require(opened.json["token"] as? String)
        let sessionID = try #require(opened.json["sessionId"] as? String)
        #expect((opened.json["expiresAt"] as? String)?.hasSuffix("Z") == true)

        #expect(try await stack.request("GET", "/v1/call-types", token: token).status == 200)

        let sessionOnBackendRoute = try await stack.request("POST", "/v1/sessions", token: token, body: "{}")
        #expect(sessionOnBackendRoute.status == 403)
        #expect(sessionOnBackendRoute.errorCode == "api_key_required")

        let badTTL = try await stack.request("POST", "/v1/sessions", token: key, body: #"{"ttlSeconds":90000}"#)
        #expect(badTTL.status == 422)
        #expect(badTTL.errorField == "ttlSeconds")

        let wrongType = try await stack.request("POST", "/v1/sessions", token: key, body: #"{"ttlSeconds":"soon"}"#)
        #expect(wrongType.status == 422)
        #expect(wrongType.errorField == "ttlSeconds")

        let otherTenant = try await stack.request("DELETE", "/v1/sessions/\(sessionID)", token: otherTenantKey)
        #expect(otherTenant.status == 404)
        #expect(try await stack.request("GET", "/v1/call-types", token: token).status == 200)

        #expect(try await stack.request("DELETE", "/v1/sessions/\(sessionID)", token: key).status == 200)
        let revoked = try await stack.request("GET", "/v1/call-types", token: token)
        #expect(revoked.status == 401)
    }

    @Test func badRequestsGetClearErrors() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "appointment",
                                                      "KYC_MAX_BODY_BYTES": "2048"])
        try await stack.waitUntil("gateway up") { (try? await stack.request("GET", "/healthz"))?.status == 200 }

        let unknown = try await stack.request("GET", "/v1/nothing-here", token: key)
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "route_not_found")

        let wrongMethod = try await stack.request("PUT", "/v1/call-types", token: key)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.errorCode == "method_not_allowed")
        #expect(wrongMethod.headers["allow"] == "GET")

        let malformed = try await stack.request("POST", "/v1/sessions", token: key, body: "{\"ttlSeconds\": ")
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "invalid_json")
        #expect(malformed.errorField == "body")

        let notObject = try await stack.request("POST", "/v1/sessions", token: key, body: "[1,2]")
        #expect(notObject.status == 400)

        let big = try await stack.request("POST", "/v1/sessions", token: key,
                                          body: "{\"pad\":\"" + String(repeating: "x", count: 4096) + "\"}")
        #expect(big.status == 413)
        #expect(big.errorCode == "payload_too_large")

        // No AppointmentService is running: the broker answers at once.
        let noWorker = try await stack.request("GET", "/v1/call-types", token: key)
        #expect(noWorker.status == 503)
        #expect(noWorker.errorCode == "unavailable")

        let notReady = try await stack.request("GET", "/readyz")
        #expect(notReady.status == 503)
        #expect((notReady.json["missing"] as? [String]) == ["appointment"])

        // The gateway is still serving after all of that.
        #expect(try await stack.request("GET", "/healthz").status == 200)
    }

    @Test func aStuckWorkerTurnsIntoA504() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "appointment",
                                                      "KYC_REQUEST_TIMEOUT_MS": "700"])
        let worker = try stack.start("AppointmentService")
        try await stack.waitForWorkers("appointment", count: 1)
        let pid = worker.processIdentifier
        let stopped = kill(pid, SIGSTOP)
        let stopError = stopped == 0 ? 0 : errno
        defer { kill(pid, SIGCONT) }
        // The request must find the worker stopped. Twice in clean-clone runs (2026-12-01) the worker answered (HTTP
        // 200) and was found running (/proc state R) after the request, though SIGSTOP had been sent: so the test
        // now waits until the kernel reports it stopped, and says what it saw if it never does.
        func state() -> String {
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
        }
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let now = state()
            if seen.last != now { seen.append(now) }
            if now == "T" || now == "t" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
            .replacingOccurrences(of: "\u{0}", with: " ") ?? "?"
        try #require(seen.last == "T" || seen.last == "t",
                     "worker \(pid) (\(command)) not stopped: kill \(stopped) errno \(stopError), states \(seen)")
        let stuck = try await stack.request("GET", "/v1/call-types", token: key)
        var context = stuck.text
        if stuck.status != 504 {
            let metrics = (try? await stack.request("GET", "/metrics").text) ?? ""
            let workers = metrics.split(separator: "\n").filter { $0.hasPrefix("kyc_broker_live_workers") }
            context += " | live workers: \(workers) | worker \(pid) state \(state())"
        }
        #expect(stuck.status == 504, "\(context)")
        #expect(stuck.errorCode == "deadline_exceeded")
    }

    /// Deterministic version of the retry: a worker is made to hold a request (SIGSTOP), then SIGKILLed; the broker
    /// must notice the dead worker and give that very request to the other one within the deadline.
    @Test func aRequestHeldByAWorkerThatDiesIsRetriedOnTheOther() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "appointment"])
        let frozen = try stack.start("AppointmentService")
        try stack.start("AppointmentService")
        try await stack.waitForWorkers("appointment", count: 2)
        kill(frozen.processIdentifier, SIGSTOP)

        // Two requests at once: the broker gives one to each ready worker, so one of them lands on the frozen one.
        async let first = stack.request("GET", "/v1/call-types", token: key)
        async let second = stack.request("GET", "/v1/call-types", token: key)
        // Then one request is held by the frozen worker (killed below). On a loaded machine the poll can miss that
        // window: after 3 s of silence the broker expires the frozen worker itself and retries what it held on the
        // other, the same rule by another route, so that ends the wait too.
        try await stack.waitUntil(seconds: 10, "a request stuck on the frozen worker") {
            guard let metrics = try? await stack.request("GET", "/metrics") else { return false }
            return metrics.text.contains("kyc_broker_requests_in_flight 1\n")
                || metrics.text.contains("kyc_broker_live_workers{service=\"appointment\"} 1\n")
        }
        kill(frozen.processIdentifier, SIGKILL)
        let statuses = try await [first.status, second.status]
        #expect(statuses == [200, 200])
    }

    @Test func killingOneOfTwoWorkersMidRunLosesNoRequest() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "appointment"])
        let first = try stack.start("AppointmentService")
        try stack.start("AppointmentService")
        try await stack.waitForWorkers("appointment", count: 2)

        // Four clients keep calling; once 40 requests have succeeded one worker is SIGKILLed, and the clients go on
        // until 120 more requests have completed after the kill.
        let progress = Progress()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    while await !progress.finished {
                        let status = try await stack.request("GET", "/v1/call-types", token: key).status
                        await progress.record(status)
                    }
                }
            }
            group.addTask {
                try await stack.waitUntil("40 requests before the kill") { await progress.count >= 40 }
                kill(first.processIdentifier, SIGKILL)
                await progress.markKill()
            }
            try await group.waitForAll()
        }
        let statuses = await progress.statuses
        let afterKill = await progress.afterKill
        #expect(afterKill >= 120)
        #expect(statuses.allSatisfy { $0 == 200 }, "statuses other than 200: \(statuses.filter { $0 != 200 })")
        try await stack.waitForWorkers("appointment", count: 1)
        #expect(try await stack.request("GET", "/v1/call-types", token: key).status == 200)
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try await stack.startGateway(appointmentWorkers: 1)
        for _ in 0..<3 { _ = try await stack.request("GET", "/v1/call-types", token: key) }
        _ = try await stack.request("GET", "/v1/call-types")
        let metrics = try await stack.request("GET", "/metrics")
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains(#"kyc_http_requests_total{route="/v1/call-types",method="GET",status="200"} 3"#))
        #expect(metrics.text.contains(#"kyc_http_requests_total{route="/v1/call-types",method="GET",status="401"} 1"#))
        #expect(metrics.text.contains(#"kyc_http_request_duration_seconds_count{route="/v1/call-types"} 4"#))
        #expect(metrics.text.contains("kyc_broker_queue_depth"))
    }

    @Test func apiKeysCreatedWhileTheGatewayRunsWorkAtOnceAndRevocationBites() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        try await stack.startGateway(appointmentWorkers: 1)
        let key = try stack.createAPIKey(tenant: "acme")
        #expect(try await stack.request("GET", "/v1/call-types", token: key).status == 200)
        let listed = try stack.runTool("kycctl", ["apikey", "list", "--tenant", "acme"])
        let keyID = try #require(listed.output.split(separator: "\t").first.map(String.init))
        #expect(try stack.runTool("kycctl", ["apikey", "revoke", keyID]).status == 0)
        #expect(try await stack.request("GET", "/v1/call-types", token: key).status == 401)
    }
}

/// Counts the kill test's requests across its client tasks.
actor Progress {
    private(set) var statuses: [Int] = []
    private var killedAt: Int?

    var count: Int { statuses.count }
    var afterKill: Int { killedAt.map { statuses.count - $0 } ?? 0 }
    var finished: Bool { afterKill >= 120 }

    func record(_ status: Int) { statuses.append(status) }
    func markKill() { killedAt = statuses.count }
}
