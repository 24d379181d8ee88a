import Foundation
import Testing

/// Corporate onboarding through the real gateway and KYBService processes, over HTTP, as a customer backend and a
/// mobile app would use it.
@Suite("KYB end to end", .serialized)
struct KYBEndToEndTests {
    @Test func corporateOnboardingFromRegistrationToDocuments() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try await stack.startKYBStack(gatewayEnvironment: ["KYC_MAX_UPLOAD_BYTES": "65536"],
                                      kybEnvironment: ["KYC_KYB_MAX_DOCUMENT_BYTES": "4096"])

        let unknown = try await stack.request("GET", "/v1/kyb/businesses/check?taxNumber=1234567890", token: key)
        #expect(unknown.status == 200)
        #expect(unknown.json["checkRecord"] as? Bool == false)
        #expect(unknown.json["callBusinessUId"] is NSNull)

        let uid = try await stack.createKYBBusiness(apiKey: key)
        let found = try await stack.request("GET", "/v1/kyb/businesses/check?taxNumber=1234567890", token: key)
        #expect(found.json["checkRecord"] as? Bool == true)
        #expect(found.json["callBusinessUId"] as? String == uid)
        #expect(found.json["type"] as? String == "limited")

        let duplicate = try await stack.request("POST", "/v1/kyb/businesses", token: key,
                                                body: #"{"taxNumber":"1234567890","name":"Again","type":"anonymous"}"#)
        #expect(duplicate.status == 409)
        #expect(duplicate.errorCode == "already_exists")
        #expect(duplicate.json["callBusinessUId"] as? String == uid)

        let badTax = try await stack.request("POST", "/v1/kyb/businesses", token: key,
                                             body: #"{"taxNumber":"1234567891","name":"X","type":"limited"}"#)
        #expect(badTax.status == 422)
        #expect(badTax.errorCode == "invalid_tax_number")
        #expect(badTax.errorField == "taxNumber")

        let patched = try await stack.request("PATCH", "/v1/kyb/businesses/\(uid)", token: key,
                                              body: #"{"reference":"crm-2","isInProgress":false}"#)
        #expect(patched.status == 200)
        #expect(patched.json["isInProgress"] as? Bool == false)
        #expect((patched.json["statusHistory"] as? [[String: Any]])?.count == 2)

        // Staff.
        let staff = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/staff", token: key, body: """
            {"sessionUId":"ses_1","name":"Ayşe","surname":"Yılmaz","identityNo":"10000000146",
             "birthDate":"1985-04-23","phone":"0532 123 45 67"}
            """)
        #expect(staff.status == 201)
        #expect(staff.json["phone"] as? String == "+905321234567")
        let underage = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/staff", token: key, body: """
            {"name":"Can","surname":"Kaya","identityNo":"12345678950","birthDate":"2020-01-01","phone":"05321234567"}
            """)
        #expect(underage.status == 422)
        #expect(underage.errorCode == "underage")
        #expect(underage.errorField == "birthDate")
        let badIdentity = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/staff", token: key, body: """
            {"name":"Can","surname":"Kaya","identityNo":"12345678951","birthDate":"1990-01-01","phone":"05321234567"}
            """)
        #expect(badIdentity.errorCode == "invalid_identity_number")
        let staffCheck = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/staff/check?identityNo=10000000146",
                                                 token: key)
        #expect(staffCheck.json["exists"] as? Bool == true)
        let staffList = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/staff", token: key)
        #expect((staffList.json["staff"] as? [[String: Any]])?.map { $0["identityNo"] as? String } == ["10000000146"])

        // Documents.
        let upload = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key,
                                             body: KYBSample.uploadBody(category: "signature_circular",
                                                                        [KYBSample.pdfA, KYBSample.png]))
        #expect(upload.status == 201)
        let documentIDs = try #require(upload.json["documentIds"] as? [String])
        #expect(documentIDs.count == 2)
        let listed = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/documents", token: key)
        #expect((listed.json["documents"] as? [[String: Any]])?.compactMap { $0["documentId"] as? String }
            == documentIDs)
        let content = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/documents/\(documentIDs[1])/content",
                                              token: key)
        #expect(content.status == 200)
        #expect(content.headers["content-type"] == "image/png")
        #expect(content.body == KYBSample.png.bytes)

        let rejected: [(String, String, String)] = [
            (KYBSample.uploadBody([KYBSample.pdfA, KYBSample.pdfB.with(sha256: KYBSample.pdfA.sha256)]),
             "hash_mismatch", "document[1].contentHash"),
            (KYBSample.uploadBody([KYBSample.pdfC, KYBSample.htmlNamedPDF]), "content_type_mismatch",
             "document[1].content"),
            (KYBSample.uploadBody([KYBSample.pdfC, KYBSample.pdfB.with(fileExtension: "exe")]),
             "unsupported_extension", "document[1].extension"),
            (KYBSample.uploadBody([KYBSample.pdfC, KYBSample.pdfB.with(base64: "JVBERi0x*LjQ=")]), "invalid_base64",
             "document[1].content"),
        ]
        for (body, code, field) in rejected {
            let answer = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key, body: body)
            #expect(answer.status == 422, "\(code)")
            #expect(answer.errorCode == code)
            #expect(answer.errorField == field)
        }
        let bigDocument = Data(Array("%PDF-".utf8) + [UInt8](repeating: 0x20, count: 5000)).base64EncodedString()
        let tooLarge = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key,
                                               body: KYBSample.uploadBody([KYBSample.pdfC,
                                                                           KYBSample.pdfB.with(base64: bigDocument)]))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.errorCode == "payload_too_large")
        #expect(tooLarge.errorField == "document[1].content")
        let hugeBody = Data([UInt8](repeating: 0x25, count: 70_000)).base64EncodedString()
        let overGatewayLimit = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key,
                                                       body: KYBSample.uploadBody([KYBSample.pdfB.with(base64: hugeBody)]))
        #expect(overGatewayLimit.status == 413)
        #expect(overGatewayLimit.errorField == "body")
        // No rejected request stored anything: pdfC was valid in each of them.
        let afterRejections = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/documents", token: key)
        #expect((afterRejections.json["documents"] as? [[String: Any]])?.count == 2)

        // The business, whole.
        let business = try await stack.request("GET", "/v1/kyb/businesses/\(uid)", token: key)
        #expect(business.status == 200)
        #expect(business.json["taxNumber"] as? String == "1234567890")
        #expect((business.json["data"] as? [String: Any])?["sector"] as? String == "retail")
        let missing = try #require(business.json["missingRequiredCategories"] as? [String: [String]])
        #expect(missing["firstPhase"]?.contains("signature_circular") == false)
        #expect(missing["firstPhase"]?.contains("tax_plate") == true)
        #expect(missing["secondPhase"] == ["beneficial_owner_declaration", "address_proof"])
        #expect((business.json["staff"] as? [[String: Any]])?.count == 1)

        let categories = try await stack.request("GET", "/v1/kyb/document-categories", token: key)
        #expect(categories.status == 200)
        let list = StackHarness.jsonArray(categories)
        #expect(list.first?["category"] as? String == "trade_registry_gazette")
        #expect(list.first?["name"] as? String == "Ticaret Sicil Gazetesi")
        #expect(list.allSatisfy { $0["nameEn"] is String && $0["isRequired"] is Bool && $0["secondPhase"] is Bool })
    }

    @Test func mobileSessionsTenantsAndAdminsSeeOnlyWhatIsTheirs() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let admin = try stack.createAPIKey(tenant: "acme", admin: true)
        let otherTenant = try stack.createAPIKey(tenant: "globex")
        try await stack.startKYBStack()
        let mine = try await stack.createKYBBusiness(apiKey: key)
        let other = try await stack.createKYBBusiness(apiKey: key, taxNumber: "9876543217", type: "anonymous")
        let session = try await stack.openKYBSession(apiKey: key, businessUID: mine)

        let upload = try await stack.request("POST", "/v1/kyb/businesses/\(mine)/documents", token: session,
                                             body: KYBSample.uploadBody([KYBSample.pdfA]))
        #expect(upload.status == 201)
        let documentID = try #require((upload.json["documentIds"] as? [String])?.first)
        #expect(try await stack.request("GET", "/v1/kyb/businesses/\(mine)", token: session).status == 200)
        let staff = try await stack.request("POST", "/v1/kyb/businesses/\(mine)/staff", token: session, body: """
            {"name":"Ayşe","surname":"Yılmaz","identityNo":"10000000146","birthDate":"1985-04-23","phone":"+905321234567"}
            """)
        #expect(staff.status == 201)
        let content = try await stack.request("GET", "/v1/kyb/businesses/\(mine)/documents/\(documentID)/content",
                                              token: session)
        #expect(content.status == 403)
        #expect(try await stack.request("GET", "/v1/kyb/businesses/\(other)", token: session).status == 404)
        #expect(try await stack.request("POST", "/v1/kyb/businesses/\(other)/documents", token: session,
                                        body: KYBSample.uploadBody([KYBSample.pdfA])).status == 404)

        // Another tenant: 404 for every id of this one, and its own check does not see the tax number.
        for path in ["/v1/kyb/businesses/\(mine)", "/v1/kyb/businesses/\(mine)/staff",
                     "/v1/kyb/businesses/\(mine)/documents",
                     "/v1/kyb/businesses/\(mine)/documents/\(documentID)/content"] {
            let answer = try await stack.request("GET", path, token: otherTenant)
            #expect(answer.status == 404, "\(path)")
        }
        let theirCheck = try await stack.request("GET", "/v1/kyb/businesses/check?taxNumber=1234567890",
                                                 token: otherTenant)
        #expect(theirCheck.json["checkRecord"] as? Bool == false)

        // Identical content stored once, but listed for each business that uploaded it.
        let again = try await stack.request("POST", "/v1/kyb/businesses/\(other)/documents", token: key,
                                            body: KYBSample.uploadBody([KYBSample.pdfA]))
        #expect(again.status == 201)
        #expect((again.json["documents"] as? [[String: Any]])?.first?["contentHash"] as? String == KYBSample.pdfA.sha256)

        // Categories: backend keys read, admin keys change, per tenant.
        let put = try await stack.request("PUT", "/v1/kyb/document-categories/kep_address", token: admin, body: """
            {"name":"KEP Adresi","nameEn":"Registered e-mail address","isRequired":true,"sequence":5,"secondPhase":false}
            """)
        #expect(put.status == 201)
        #expect(try await stack.request("PUT", "/v1/kyb/document-categories/x", token: key,
                                        body: #"{"name":"X","nameEn":"X"}"#).status == 403)
        #expect(try await stack.request("DELETE", "/v1/kyb/document-categories/tax_plate", token: admin).status == 200)
        let acmeList = StackHarness.jsonArray(try await stack.request("GET", "/v1/kyb/document-categories", token: key))
        #expect(acmeList.first?["category"] as? String == "kep_address")
        #expect(!acmeList.contains { $0["category"] as? String == "tax_plate" })
        let globexList = StackHarness.jsonArray(try await stack.request("GET", "/v1/kyb/document-categories",
                                                                        token: otherTenant))
        #expect(globexList.contains { $0["category"] as? String == "tax_plate" })
    }

    @Test func recordsAndDocumentsSurviveAServiceRestart() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let worker = try await stack.startKYBStack()
        let uid = try await stack.createKYBBusiness(apiKey: key)
        // 3 MiB of documents: a body well above the 1 MiB limit of other routes passes the HTTP server.
        let large = try KYBSample.largePDF(size: 3 << 20)
        let upload = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key,
                                             body: KYBSample.uploadBody([KYBSample.pdfB, large]))
        #expect(upload.status == 201)
        let documentIDs = try #require(upload.json["documentIds"] as? [String])
        let documentID = try #require(documentIDs.first)

        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        // The broker notices the dead worker by its missing heartbeats.
        try await stack.waitUntil("the killed worker to be dropped") {
            guard let metrics = try? await stack.request("GET", "/metrics") else { return false }
            return !metrics.text.contains("kyc_broker_live_workers{service=\"kyb\"} 1\n")
        }
        try stack.start("KYBService")
        try await stack.waitForWorkers("kyb", count: 1)

        let business = try await stack.request("GET", "/v1/kyb/businesses/\(uid)", token: key)
        #expect(business.status == 200)
        #expect((business.json["documents"] as? [[String: Any]])?.count == 2)
        let content = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/documents/\(documentID)/content",
                                              token: key)
        #expect(content.body == KYBSample.pdfB.bytes)
        let largeContent = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/documents/\(documentIDs[1])/content",
                                                   token: key)
        #expect(largeContent.body == large.bytes)
    }

    /// KYBService exits abruptly (no COMMIT) after writing the first document row; whatever happens next — the
    /// broker retrying on the healthy worker started afterwards, or the request failing — the business holds either
    /// every document of the upload or none.
    @Test func aCrashInTheMiddleOfAnUploadLeavesAllOrNothing() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let crashing = try await stack.startKYBStack(kybEnvironment: ["KYC_KYB_TEST_EXIT_MID_UPLOAD": "1"])
        let uid = try await stack.createKYBBusiness(apiKey: key)

        let body = KYBSample.uploadBody([KYBSample.pdfA, KYBSample.pdfB, KYBSample.png])
        let upload = Task { try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key, body: body) }
        try await stack.waitUntil("the KYBService to crash mid-upload") { !crashing.isRunning }
        #expect(crashing.terminationStatus == 75)
        try stack.start("KYBService")
        try await stack.waitForWorkers("kyb", count: 1)
        let answer = try await upload.value

        let listed = try await stack.request("GET", "/v1/kyb/businesses/\(uid)/documents", token: key)
        let count = (listed.json["documents"] as? [[String: Any]])?.count
        #expect(count == 0 || count == 3, "partial upload stored: \(String(describing: count)) documents")
        if answer.status == 201 { #expect(count == 3) } else { #expect(count == 0) }

        // The service serves normally afterwards.
        let retry = try await stack.request("POST", "/v1/kyb/businesses/\(uid)/documents", token: key, body: body)
        #expect(retry.status == 201)
    }
}
