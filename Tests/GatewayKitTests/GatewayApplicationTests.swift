import Credentials
import Foundation
@testable import GatewayKit
import HTTPServer
import KYCCore
import KYCMessages
import Messaging
import Testing
import ZeroMQ
import TestSupport

/// The gateway's handler driven directly (no HTTP socket) against a real broker and a real in-process worker whose
/// handler reports what arrived in the envelope.
@Suite("Gateway application", .serialized)
final class GatewayApplicationTests {
    let logger = Logger(service: "test", level: .critical, sink: InMemoryLogSink())
    let context: ZMQContext
    let broker: Broker
    let worker: ServiceWorker
    /// The credential store's data directory; removed when the test's instance goes away.
    let directory: TemporaryDirectory
    let credentials: CredentialStore
    let application: GatewayApplication

    init() async throws {
        directory = try TemporaryDirectory("gw-app")
        credentials = try CredentialStore(dataDirectory: directory.file("data"))
        context = try ZMQContext()
        broker = try Broker(configuration: BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*"), context: context,
                            logger: logger)
        let endpoint = try broker.start()
        var router = ServiceRouter(service: "appointment", logger: logger)
        router.register("appointment.ListCallTypes") { envelope in
            // Report the envelope's contents as call types, so the test can see what the gateway sent.
            let request = try ListCallTypesRequest(serialized: envelope.payload)
            let fields: [(String, String)] = [
                ("tenant", envelope.tenant), ("principal", envelope.principal.id),
                ("kind", String(envelope.principal.kind.rawValue)),
                ("identityNo", envelope.principal.identity?.identityNo ?? "-"),
                ("requestId", envelope.requestID), ("handler", request.handler),
                ("deadlineAhead", String(envelope.deadlineUnixMs > WallClock.nowMilliseconds())),
                ("priority", String(envelope.principal.identity?.isPriorityCustomer ?? false)),
                ("business", envelope.principal.businessUID),
            ]
            return ListCallTypesReply(callTypes: fields.map { CallType(code: $0.0, name: $0.1, handler: "KYC") })
                .serialized()
        }
        worker = try ServiceWorker(configuration: ServiceWorkerConfiguration(service: "appointment",
                                                                             brokerEndpoint: endpoint, threads: 1),
                                   router: router, logger: logger)
        try worker.start()
        var configuration = GatewayConfiguration()
        configuration.requiredServices = ["appointment"]
        application = GatewayApplication(configuration: configuration, credentials: credentials, dispatcher: broker,
                                         logger: logger)
        let deadline = Date().addingTimeInterval(10)
        while broker.stats().workersByService["appointment"] != 1 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    deinit {
        worker.stop()
        broker.stop()
        context.terminate()
    }

    func call(_ method: String, _ path: String, query: [(String, String)] = [], token: String? = nil,
              body: String = "", requestID: String? = nil) async -> (status: Int, json: JSONValue, headers: [String: String]) {
        var headers: [String: String] = [:]
        if let token { headers["authorization"] = "Bearer \(token)" }
        if let requestID { headers["x-request-id"] = requestID }
        let request = HTTPRequest(method: method, path: path, queryItems: query.map { (name: $0.0, value: $0.1) },
                                  headers: headers, body: Array(body.utf8))
        let response: HTTPResponse = await withCheckedContinuation { continuation in
            application.handle(request) { continuation.resume(returning: $0) }
        }
        let json = (try? JSONValue.parseObject(response.body)) ?? .null
        var headerMap: [String: String] = [:]
        for header in response.headers { headerMap[header.name.lowercased()] = header.value }
        return (response.status, json, headerMap)
    }

    @Test func apiKeyCallersReachTheServiceWithTheirTenantAndPrincipal() async throws {
        let (record, key) = try credentials.createAPIKey(tenant: "acme", admin: false)
        let result = await call("GET", "/v1/call-types", query: [("handler", "KYB")], token: key, requestID: "rid-42")
        #expect(result.status == 200)
        let seen = try #require(result.json["callTypes"])
        #expect(seen["tenant"] == .string("acme"))
        #expect(seen["principal"] == .string(record.keyID))
        #expect(seen["kind"] == .string("1"))
        #expect(seen["identityNo"] == .string("-"))
        #expect(seen["requestId"] == .string("rid-42"))
        #expect(seen["handler"] == .string("KYB"))
        #expect(seen["deadlineAhead"] == .string("true"))
        #expect(result.headers["x-request-id"] == "rid-42")
    }

    @Test func sessionCallersCarryTheirIdentity() async throws {
        let (_, key) = try credentials.createAPIKey(tenant: "acme", admin: false)
        let opened = await call("POST", "/v1/sessions", token: key, body: """
            {"identity":{"identityType":"TCKN","identityNo":"10000000146","isPriorityCustomer":true},
             "businessUId":"biz_1"}
            """)
        #expect(opened.status == 201)
        #expect(opened.json["businessUId"] == .string("biz_1"))
        let token = try #require(opened.json["token"]?.stringValue)
        let result = await call("GET", "/v1/call-types", token: token)
        #expect(result.status == 200)
        #expect(result.json["callTypes"]?["identityNo"] == .string("10000000146"))
        #expect(result.json["callTypes"]?["kind"] == .string("2"))
        #expect(result.json["callTypes"]?["priority"] == .string("true"))
        #expect(result.json["callTypes"]?["business"] == .string("biz_1"))

        let plain = await call("POST", "/v1/sessions", token: key, body: #"{"identity":{"identityNo":"10000000146"}}"#)
        let plainResult = await call("GET", "/v1/call-types", token: try #require(plain.json["token"]?.stringValue))
        #expect(plainResult.json["callTypes"]?["priority"] == .string("false"))
        #expect(plainResult.json["callTypes"]?["business"] == .string(""))

        let badFlag = await call("POST", "/v1/sessions", token: key,
                                 body: #"{"identity":{"identityNo":"1","isPriorityCustomer":"yes"}}"#)
        #expect(badFlag.status == 422)
        #expect(badFlag.json["error"]?["field"] == .string("identity.isPriorityCustomer"))
    }

    @Test func tenantsNeverSeeEachOthersSessions() async throws {
        let (_, acme) = try credentials.createAPIKey(tenant: "acme", admin: false)
        let (_, globex) = try credentials.createAPIKey(tenant: "globex", admin: false)
        let opened = await call("POST", "/v1/sessions", token: acme, body: "{}")
        let sessionID = try #require(opened.json["sessionId"]?.stringValue)
        let foreign = await call("DELETE", "/v1/sessions/\(sessionID)", token: globex)
        #expect(foreign.status == 404)
        #expect(foreign.json["error"]?["code"] == .string("session_not_found"))
    }

    @Test func sessionScopesLimitWhatATokenMayCall() async throws {
        let (_, key) = try credentials.createAPIKey(tenant: "acme", admin: false)
        let opened = await call("POST", "/v1/sessions", token: key, body: #"{"scopes":["capture"]}"#)
        #expect(opened.json["scopes"] == .array([.string("capture")]))
        let unknownScope = await call("POST", "/v1/sessions", token: key, body: #"{"scopes":["root"]}"#)
        #expect(unknownScope.status == 422)
        #expect(unknownScope.json["error"]?["field"] == .string("scopes"))
    }

    @Test(arguments: ["Basic abc", "Bearer", "kyck_abc", "Bearer kycs_unknown"])
    func badAuthorizationHeadersAre401(header: String) async {
        let request = HTTPRequest(method: "GET", path: "/v1/call-types", headers: ["authorization": header])
        let response: HTTPResponse = await withCheckedContinuation { continuation in
            application.handle(request) { continuation.resume(returning: $0) }
        }
        #expect(response.status == 401)
    }

    @Test func readinessFollowsLiveWorkers() async throws {
        #expect(await call("GET", "/readyz").status == 200)
        let body = await call("GET", "/readyz").json
        #expect(body["liveWorkers"]?["appointment"] == .integer(1))
    }

    @Test func readinessNamesMissingServices() {
        let response = PlatformRoutes.readiness(BrokerSnapshot(liveWorkers: ["appointment": 2]),
                                                required: ["appointment", "kyb"])
        #expect(response.status == 503)
        #expect(response.body?["missing"] == .array([.string("kyb")]))
    }
}
