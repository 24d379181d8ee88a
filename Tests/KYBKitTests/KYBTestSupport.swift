import KYCCrypto
import Foundation
@testable import KYBKit
import KYCCore
import KYCMessages
import Messaging
import Storage
import TestSupport

/// A KYBService without sockets: real handlers on a real SQLite file in a temporary directory, called with
/// envelopes as the broker would deliver them.
final class KYBFixture: Sendable {
    /// 2026-11-18 14:06:40 in Türkiye.
    static let now: Int64 = 1_795_000_000_000
    static let vkn = "1234567890"
    static let otherVKN = "9876543217"
    static let tckn = "10000000146"
    static let otherTCKN = "12345678950"

    /// Holds the database file, removed when the last fixture on it goes away; pass one in to reopen a database.
    let directory: TemporaryDirectory
    let path: String
    let store: KYBStore
    let router: ServiceRouter

    init(directory: TemporaryDirectory? = nil, limits: KYBLimits = KYBLimits(),
         midUploadHook: (@Sendable (Int) throws -> Void)? = nil) throws {
        self.directory = try directory ?? TemporaryDirectory("kyb")
        path = self.directory.file("kyb.sqlite")
        store = try KYBStore(database: Database(path: path), midUploadHook: midUploadHook)
        router = KYBHandlers(store: store, limits: limits, now: { KYBFixture.now })
            .router(version: "test", logger: Logger(service: "test", level: .critical, sink: InMemoryLogSink()))
    }

    static func apiKey(_ id: String = "key_backend", admin: Bool = false) -> Principal {
        Principal(kind: .apiKey, id: id, scopes: admin ? ["backend", "admin"] : ["backend"])
    }

    static func session(boundTo business: String, scopes: [String] = ["kyb"]) -> Principal {
        Principal(kind: .session, id: "ses_mobile", scopes: scopes, businessUID: business)
    }

    func call(_ method: String, _ message: some WireMessage, tenant: String = "acme",
              principal: Principal = KYBFixture.apiKey(), requestID: String = UUID().uuidString) -> ReplyEnvelope {
        router.handle(RequestEnvelope(requestID: requestID, tenant: tenant, principal: principal,
                                      deadlineUnixMs: 0, method: method, payload: message.serialized()),
                      now: KYBFixture.now)
    }

    /// Registers a business and returns its id.
    func createBusiness(taxNumber: String = KYBFixture.vkn, type: String = "limited", tenant: String = "acme") throws
        -> String {
        let reply = call("kyb.CreateBusiness", CreateBusinessRequest(taxNumber: taxNumber, name: "Acme Ltd. Şti.",
                                                                     shortName: "Acme", dataJSON: #"{"sector":"retail"}"#,
                                                                     type: type, reference: "crm-1"),
                         tenant: tenant)
        guard reply.status == .ok else { throw KYBTestError("create failed: \(reply.errorCode) \(reply.reason)") }
        return try CreateBusinessReply(serialized: reply.payload).businessUID
    }

    func business(_ uid: String, tenant: String = "acme") throws -> KYBBusiness {
        let reply = call("kyb.GetBusiness", GetBusinessRequest(businessUID: uid), tenant: tenant)
        guard reply.status == .ok else { throw KYBTestError("get failed: \(reply.errorCode)") }
        return try BusinessReply(serialized: reply.payload).business
    }
}

struct KYBTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Sample files whose first bytes are what their type requires.
enum SampleFile {
    static let pdf = Array("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n".utf8)
    static let otherPDF = Array("%PDF-1.7\n% another document\n%%EOF\n".utf8)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
    static let html = Array("<html><script>alert(1)</script></html>".utf8)

    static func upload(_ bytes: [UInt8], _ fileExtension: String = "pdf", hash: String? = nil) -> KYBDocumentUpload {
        KYBDocumentUpload(fileExtension: fileExtension, content: bytes, contentHash: hash ?? SHA256.hex(bytes))
    }
}
