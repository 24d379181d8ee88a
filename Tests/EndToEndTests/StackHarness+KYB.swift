import Foundation
import Testing

/// KYB helpers for the end-to-end tests: a gateway with KYBService workers, sessions bound to a business, and
/// sample documents whose SHA-256 was computed independently (Python's hashlib) and written down here.
extension StackHarness {
    /// Starts the gateway (readiness requires only `kyb`) and one KYBService, and waits until it is registered.
    @discardableResult
    func startKYBStack(gatewayEnvironment: [String: String] = [:], kybEnvironment: [String: String] = [:])
        async throws -> Process {
        try start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "kyb"]
            .merging(gatewayEnvironment) { _, new in new })
        let worker = try start("KYBService", extraEnvironment: kybEnvironment)
        try await waitForWorkers("kyb", count: 1)
        return worker
    }

    /// Opens a mobile session bound to `businessUID` and returns its token.
    func openKYBSession(apiKey: String, businessUID: String, scopes: [String] = ["kyb"]) async throws -> String {
        let scopeList = scopes.map { "\"\($0)\"" }.joined(separator: ",")
        let opened = try await request("POST", "/v1/sessions", token: apiKey,
                                       body: #"{"businessUId":"\#(businessUID)","scopes":[\#(scopeList)]}"#)
        guard opened.status == 201, let token = opened.json["token"] as? String else {
            throw HarnessError("cannot open a KYB session: \(opened.status) \(opened.text)")
        }
        return token
    }

    /// Registers a business and returns its id.
    func createKYBBusiness(apiKey: String, taxNumber: String = "1234567890", type: String = "limited") async throws
        -> String {
        let created = try await request("POST", "/v1/kyb/businesses", token: apiKey, body: """
            {"taxNumber":"\(taxNumber)","name":"Acme Ticaret Ltd. Şti.","shortName":"Acme","type":"\(type)",
             "reference":"crm-1","data":{"sector":"retail","employees":12}}
            """)
        guard created.status == 201, let uid = created.json["callBusinessUId"] as? String else {
            throw HarnessError("cannot create a business: \(created.status) \(created.text)")
        }
        return uid
    }

    /// A JSON top-level array answer.
    static func jsonArray(_ response: Response) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] ?? []
    }
}

/// Sample documents: base64 and SHA-256 computed outside Swift.
enum KYBSample {
    struct File {
        let fileExtension: String
        let base64: String
        let sha256: String
        var bytes: Data { Data(base64Encoded: base64)! }

        var json: String { #"{"extension":"\#(fileExtension)","content":"\#(base64)","contentHash":"\#(sha256)"}"# }

        func with(fileExtension: String? = nil, base64: String? = nil, sha256: String? = nil) -> File {
            File(fileExtension: fileExtension ?? self.fileExtension, base64: base64 ?? self.base64,
                 sha256: sha256 ?? self.sha256)
        }
    }

    static let pdfA = File(fileExtension: "pdf", base64: "JVBERi0xLjQKJSBLWUIgZTJlIEEKJSVFT0YK",
                           sha256: "02c907d3b96e0507cc14facfdb8b9ec8b4cad646ee6212462ca61321ff11c663")
    static let pdfB = File(fileExtension: "pdf", base64: "JVBERi0xLjQKJSBLWUIgZTJlIEIKJSVFT0YK",
                           sha256: "7b73626919e35773babb78ea790685175e1d2a3bc18210fdefd21d650d5670b9")
    static let pdfC = File(fileExtension: "pdf", base64: "JVBERi0xLjQKJSBLWUIgZTJlIEMKJSVFT0YK",
                           sha256: "f7d3d59053d283b16046b591ba31e6bc8d467fdfd5c5bb7af8d08bfebb1bd2dd")
    static let png = File(fileExtension: "png", base64: "iVBORw0KGgplMmUtcG5n",
                          sha256: "45df3db4a5f88af083a0bccf1398b7f68cbb2ae3aa9012e0c8a0a269a12f965d")
    static let htmlNamedPDF = File(fileExtension: "pdf", base64: "PGh0bWw+bm90IGEgcGRmPC9odG1sPg==",
                                   sha256: "727a5a7d586b1609653c0db120acf0ec0893cfd5adff39db98c1446e906b2ce1")

    /// A PDF-signed file of `size` bytes, its SHA-256 computed by coreutils' `sha256sum`.
    static func largePDF(size: Int) throws -> File {
        let bytes = Data(Array("%PDF-1.7\n".utf8) + (0..<(size - 9)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(bytes)
        try input.fileHandleForWriting.close()
        let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return File(fileExtension: "pdf", base64: bytes.base64EncodedString(),
                    sha256: String(digest.prefix(64)))
    }

    static func uploadBody(category: String = "tax_plate", reference: String = "ref-1", _ files: [File]) -> String {
        #"{"category":"\#(category)","reference":"\#(reference)","document":[\#(files.map(\.json).joined(separator: ","))]}"#
    }
}
