import Credentials
import Foundation
@testable import GatewayKit
import HTTPServer
import KYCCore
import KYCMessages
import Synchronization
import Testing
import TestSupport

/// A dispatcher standing in for KYBService: records each envelope and answers with the reply the test scripted.
final class ScriptedDispatcher: ServiceDispatcher {
    let sent = Mutex<[RequestEnvelope]>([])
    let answer: @Sendable (RequestEnvelope) -> ReplyEnvelope

    init(answer: @escaping @Sendable (RequestEnvelope) -> ReplyEnvelope) {
        self.answer = answer
    }

    func dispatch(service: String, envelope: RequestEnvelope,
                  completion: @escaping @Sendable (ReplyEnvelope) -> Void) {
        sent.withLock { $0.append(envelope) }
        completion(answer(envelope))
    }

    func snapshot() -> BrokerSnapshot { BrokerSnapshot() }

    var last: RequestEnvelope? { sent.withLock { $0.last } }
    var count: Int { sent.withLock { $0.count } }
}

/// The KYB routes of the gateway, driven without sockets: JSON → service message, reply → HTTP, access per route.
@Suite("KYB routes")
struct KYBRoutesTests {
    /// The credential store's data directory; removed when the test's instance goes away.
    let directory: TemporaryDirectory
    let credentials: CredentialStore
    let dispatcher: ScriptedDispatcher
    let application: GatewayApplication
    let key: String

    init(maxBodyBytes: Int = 1 << 20, maxUploadBytes: Int = 16 << 20,
         answer: @escaping @Sendable (RequestEnvelope) -> ReplyEnvelope = KYBRoutesTests.defaultAnswer) throws {
        directory = try TemporaryDirectory("kyb-routes")
        credentials = try CredentialStore(dataDirectory: directory.file("data"))
        dispatcher = ScriptedDispatcher(answer: answer)
        var configuration = GatewayConfiguration()
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxUploadBytes = maxUploadBytes
        application = GatewayApplication(configuration: configuration, credentials: credentials, dispatcher: dispatcher,
                                         logger: Logger(service: "test", level: .critical, sink: InMemoryLogSink()))
        key = try credentials.createAPIKey(tenant: "acme", admin: false).1
    }

    init() throws { try self.init(maxBodyBytes: 1 << 20) }

    /// Answers each method with a plausible reply.
    static let defaultAnswer: @Sendable (RequestEnvelope) -> ReplyEnvelope = { envelope in
        let payload: [UInt8] = switch envelope.method {
        case "kyb.CreateBusiness": CreateBusinessReply(businessUID: "biz_1", outcome: .created).serialized()
        case "kyb.UploadDocuments":
            UploadBusinessDocumentsReply(uploadUID: "upl_1", documents: [
                KYBDocument(documentUID: "doc_1", category: "tax_plate", fileExtension: "pdf",
                            contentType: "application/pdf", sizeBytes: 5, sha256: "ab", createdAtUnixMs: 0,
                            uploadUID: "upl_1"),
            ]).serialized()
        case "kyb.CheckBusiness": CheckBusinessReply(exists: false).serialized()
        default: []
        }
        return .success(requestID: envelope.requestID, payload: payload)
    }

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: Data(body))) ?? .null }
        var errorCode: String? { json["error"]?["code"]?.stringValue }
        var errorField: String? { json["error"]?["field"]?.stringValue }
    }

    func call(_ method: String, _ path: String, query: [(String, String)] = [], token: String? = nil,
              body: String = "") async -> Answer {
        var headers: [String: String] = [:]
        if let token = token ?? Optional(key) { headers["authorization"] = "Bearer \(token)" }
        let request = HTTPRequest(method: method, path: path, queryItems: query.map { (name: $0.0, value: $0.1) },
                                  headers: headers, body: Array(body.utf8))
        let response: HTTPResponse = await withCheckedContinuation { continuation in
            application.handle(request) { continuation.resume(returning: $0) }
        }
        var headerMap: [String: String] = [:]
        for header in response.headers { headerMap[header.name.lowercased()] = header.value }
        return Answer(status: response.status, headers: headerMap, body: response.body)
    }

    func session(business: String?, scopes: [String] = []) throws -> String {
        try credentials.openSession(tenant: "acme", createdBy: "key_test", identity: nil, scopes: scopes,
                                    ttlSeconds: 600, businessUID: business).token
    }

    static func uploadBody(content: String, hash: String = String(repeating: "a", count: 64)) -> String {
        #"{"category":"tax_plate","reference":"r1","document":[{"extension":"pdf","content":"\#(content)","contentHash":"\#(hash)"}]}"#
    }

    @Test func createBusinessSendsEveryFieldAndAnswers201() async throws {
        let answer = await call("POST", "/v1/kyb/businesses", body: """
            {"taxNumber":"1234567890","name":"Acme","shortName":"AC","type":"limited","reference":"crm-1",
             "data":{"sector":"retail","employees":12}}
            """)
        #expect(answer.status == 201)
        #expect(answer.json == .object([("callBusinessUId", .string("biz_1"))]))
        let sent = try #require(dispatcher.last)
        #expect(sent.method == "kyb.CreateBusiness")
        #expect(sent.tenant == "acme")
        let request = try CreateBusinessRequest(serialized: sent.payload)
        #expect(request.taxNumber == "1234567890" && request.name == "Acme" && request.shortName == "AC")
        #expect(request.type == "limited" && request.reference == "crm-1")
        #expect(try JSONValue.parseObject(Array(request.dataJSON.utf8))
            == .object([("sector", .string("retail")), ("employees", .integer(12))]))
    }

    @Test func anExistingTaxNumberIs409WithTheExistingId() async throws {
        let routes = try KYBRoutesTests(answer: { envelope in
            .success(requestID: envelope.requestID,
                     payload: CreateBusinessReply(businessUID: "biz_old", outcome: .alreadyExists).serialized())
        })
        let answer = await routes.call("POST", "/v1/kyb/businesses", body: #"{"taxNumber":"1234567890"}"#)
        #expect(answer.status == 409)
        #expect(answer.errorCode == "already_exists")
        #expect(answer.errorField == "taxNumber")
        #expect(answer.json["callBusinessUId"] == .string("biz_old"))
    }

    @Test func wrongJSONTypesAre422BeforeTheService() async throws {
        let cases: [(String, String, String, String)] = [
            ("POST", "/v1/kyb/businesses", #"{"taxNumber":1234567890}"#, "taxNumber"),
            ("POST", "/v1/kyb/businesses", #"{"data":"text"}"#, "data"),
            ("PATCH", "/v1/kyb/businesses/biz_1", #"{"isInProgress":"no"}"#, "isInProgress"),
            ("PATCH", "/v1/kyb/businesses/biz_1", #"{"inProgress":false}"#, "body"),
            ("POST", "/v1/kyb/businesses/biz_1/staff", #"{"birthDate":19900101}"#, "birthDate"),
            ("POST", "/v1/kyb/businesses/biz_1/documents", #"{"category":"tax_plate"}"#, "document"),
            ("POST", "/v1/kyb/businesses/biz_1/documents", #"{"document":{"content":""}}"#, "document"),
            ("POST", "/v1/kyb/businesses/biz_1/documents", #"{"document":["x"]}"#, "document[0]"),
            ("PUT", "/v1/kyb/document-categories/x", #"{"isRequired":"yes"}"#, "isRequired"),
        ]
        let admin = try credentials.createAPIKey(tenant: "acme", admin: true).1
        for (method, path, body, field) in cases {
            let answer = await call(method, path, token: method == "PUT" ? admin : key, body: body)
            #expect(answer.status == 422, "\(method) \(path) \(body)")
            #expect(answer.errorField == field, "\(method) \(path) \(body)")
        }
        #expect(dispatcher.count == 0)
    }

    @Test func uploadsDecodeBase64AndAnswer201WithDocumentIds() async throws {
        let pdf = Array("%PDF-1.4 test".utf8)
        let answer = await call("POST", "/v1/kyb/businesses/biz_1/documents",
                                body: Self.uploadBody(content: Data(pdf).base64EncodedString()))
        #expect(answer.status == 201)
        #expect(answer.json["documentIds"] == .array([.string("doc_1")]))
        #expect(answer.json["uploadId"] == .string("upl_1"))
        let request = try UploadBusinessDocumentsRequest(serialized: try #require(dispatcher.last).payload)
        #expect(request.businessUID == "biz_1" && request.category == "tax_plate" && request.reference == "r1")
        #expect(request.documents == [KYBDocumentUpload(fileExtension: "pdf", content: pdf,
                                                        contentHash: String(repeating: "a", count: 64))])
    }

    @Test(arguments: ["JVBERi0xLjQ", "JVBERi0x\nLjQgdGVzdA==", "JVBERi0xLjQgdGVzdA=", "JVBER!0xLjQgdGVzdA==",
                      "JVBERi0xLjQgdGVzdA-_", " JVBERi0xLjQgdGVzdA=="])
    func invalidBase64Is422(content: String) async throws {
        let escaped = content.replacingOccurrences(of: "\n", with: "\\n")
        let answer = await call("POST", "/v1/kyb/businesses/biz_1/documents", body: Self.uploadBody(content: escaped))
        #expect(answer.status == 422)
        #expect(answer.errorCode == "invalid_base64")
        #expect(answer.errorField == "document[0].content")
        #expect(dispatcher.count == 0)
    }

    @Test func uploadRoutesTakeLargerBodiesThanOtherRoutes() async throws {
        let routes = try KYBRoutesTests(maxBodyBytes: 4096, maxUploadBytes: 64 * 1024)
        let content = Data(Array("%PDF-".utf8) + [UInt8](repeating: 0x41, count: 20_000)).base64EncodedString()
        let accepted = await routes.call("POST", "/v1/kyb/businesses/biz_1/documents",
                                         body: Self.uploadBody(content: content))
        #expect(accepted.status == 201)
        let big = Data([UInt8](repeating: 0x41, count: 60 * 1024)).base64EncodedString()
        let refused = await routes.call("POST", "/v1/kyb/businesses/biz_1/documents",
                                        body: Self.uploadBody(content: big))
        #expect(refused.status == 413)
        #expect(refused.errorCode == "payload_too_large")
        #expect(refused.errorField == "body")
        let padding = String(repeating: " ", count: 5000)
        let standard = await routes.call("POST", "/v1/kyb/businesses", body: #"{"name":"x"}"# + padding)
        #expect(standard.status == 413)
        #expect(routes.dispatcher.count == 1)
    }

    @Test func documentContentIsServedAsRawBytesWithItsType() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]
        let routes = try KYBRoutesTests(answer: { envelope in
            .success(requestID: envelope.requestID, payload: BusinessDocumentContentReply(
                document: KYBDocument(documentUID: "doc_9", fileExtension: "png", contentType: "image/png",
                                      sizeBytes: 10, sha256: "cafe"), content: png).serialized())
        })
        let answer = await routes.call("GET", "/v1/kyb/businesses/biz_1/documents/doc_9/content")
        #expect(answer.status == 200)
        #expect(answer.body == png)
        #expect(answer.headers["content-type"] == "image/png")
        #expect(answer.headers["x-content-type-options"] == "nosniff")
        #expect(answer.headers["content-disposition"] == "attachment; filename=\"doc_9.png\"")
        #expect(answer.headers["cache-control"] == "no-store")
        let request = try GetBusinessDocumentContentRequest(serialized: try #require(routes.dispatcher.last).payload)
        #expect(request == GetBusinessDocumentContentRequest(businessUID: "biz_1", documentUID: "doc_9"))
    }

    @Test func serviceErrorsKeepTheirStatusAndField() async throws {
        let routes = try KYBRoutesTests(answer: { envelope in
            .failure(requestID: envelope.requestID, status: .invalidArgument, reason: "hash differs",
                     errorCode: "hash_mismatch",
                     violations: [FieldViolation(field: "document[0].contentHash", code: "hash_mismatch",
                                                 message: "hash differs")])
        })
        let content = Data("%PDF-1".utf8).base64EncodedString()
        let answer = await routes.call("POST", "/v1/kyb/businesses/biz_1/documents",
                                       body: Self.uploadBody(content: content))
        #expect(answer.status == 422)
        #expect(answer.errorCode == "hash_mismatch")
        #expect(answer.errorField == "document[0].contentHash")
    }

    @Test func sessionsReachTheMobileRoutesButNotContentOrBackendRoutes() async throws {
        let token = try session(business: "biz_1", scopes: ["kyb"])
        #expect(await call("GET", "/v1/kyb/businesses/biz_1", token: token).status == 200)
        #expect(try #require(dispatcher.last).principal.businessUID == "biz_1")
        #expect(await call("GET", "/v1/kyb/document-categories", token: token).status == 200)
        let staff = await call("POST", "/v1/kyb/businesses/biz_1/staff", token: token, body: #"{"name":"A"}"#)
        #expect(staff.status == 200 || staff.status == 201)
        for (method, path) in [("GET", "/v1/kyb/businesses/biz_1/documents/doc_1/content"),
                               ("PATCH", "/v1/kyb/businesses/biz_1"), ("POST", "/v1/kyb/businesses"),
                               ("GET", "/v1/kyb/businesses/check")] {
            let answer = await call(method, path, query: [("taxNumber", "1234567890")], token: token,
                                    body: #"{"reference":"x"}"#)
            #expect(answer.status == 403, "\(method) \(path)")
            #expect(answer.errorCode == "api_key_required", "\(method) \(path)")
        }
        let otherScope = try session(business: "biz_1", scopes: ["appointments"])
        #expect(await call("GET", "/v1/kyb/businesses/biz_1", token: otherScope).status == 403)
    }

    @Test func onlyAdminKeysChangeCategories() async throws {
        let body = #"{"name":"KEP","nameEn":"KEP","isRequired":true,"sequence":5,"secondPhase":false}"#
        let refused = await call("PUT", "/v1/kyb/document-categories/kep", body: body)
        #expect(refused.status == 403)
        #expect(await call("DELETE", "/v1/kyb/document-categories/kep").status == 403)
        #expect(dispatcher.count == 0)
        let admin = try credentials.createAPIKey(tenant: "acme", admin: true).1
        _ = await call("PUT", "/v1/kyb/document-categories/kep", token: admin, body: body)
        let request = try PutKYBDocumentCategoryRequest(serialized: try #require(dispatcher.last).payload)
        #expect(request.category == KYBDocumentCategory(category: "kep", name: "KEP", nameEn: "KEP", isRequired: true,
                                                        sequence: 5, secondPhase: false))
        #expect(try #require(dispatcher.last).principal.scopes.contains("admin"))
    }

    @Test func checkRoutesWinOverTheBusinessIdPattern() async throws {
        let answer = await call("GET", "/v1/kyb/businesses/check", query: [("taxNumber", "1234567890")])
        #expect(answer.status == 200)
        #expect(answer.json == .object([("checkRecord", .bool(false)), ("callBusinessUId", .null), ("type", .null)]))
        #expect(try #require(dispatcher.last).method == "kyb.CheckBusiness")
        #expect(try CheckBusinessRequest(serialized: try #require(dispatcher.last).payload).taxNumber == "1234567890")
    }
}
