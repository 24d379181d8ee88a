import KYCCore
import Credentials
import Foundation
import KYCMessages

/// Document signing routes (issue #6) → SigningService. The customer backend (API key) creates requests, reads
/// their status, finishes them and fetches the evidence; the signer's device (a session token with the `signing`
/// scope, of the session the request was created for) reads the documents, enrols its key or gets a platform-issued
/// one, signs and may finish. The service answers 404 for another tenant's or another session's request.
enum SigningRoutes {
    static let service = "signing"

    static func routes(_ dependencies: GatewayDependencies) -> [Route] {
        let credentials = dependencies.credentials
        let backend = RouteAccess.apiKey(scope: Scope.backend)
        let either = RouteAccess.apiKeyOrSession(sessionScope: Scope.signing)
        return [
            Route("POST", "/v1/signing/requests", access: backend, bodyLimit: .upload, action: .service(ServiceCall(
                service: service, method: "signing.CreateRequest",
                buildPayload: { context in
                    let request = try SigningRequestBody.create(context)
                    // The signer is the person of an active session of this tenant; refuse anything else up front.
                    guard try credentials.activeSession(tenant: context.caller!.tenant,
                                                        sessionID: request.sessionID) != nil else {
                        throw APIError.invalidField("sessionId", "unknown_session",
                                                    "sessionId is not an active session of this tenant")
                    }
                    return request.serialized()
                },
                renderResponse: { payload, _ in
                    let reply = try SigningRequestReply(serialized: payload)
                    return .json(SigningJSON.request(reply), status: reply.created ? 201 : 200)
                }))),
            Route("GET", "/v1/signing/requests/{reference}", access: either, action: .service(ServiceCall(
                service: service, method: "signing.GetRequest",
                buildPayload: { context in GetSigningRequest(reference: reference(context)).serialized() },
                renderReply: { payload, _ in SigningJSON.request(try SigningRequestReply(serialized: payload)) }))),
            Route("GET", "/v1/signing/requests/{reference}/documents/{documentId}/content", access: either,
                  action: .service(ServiceCall(
                      service: service, method: "signing.GetDocumentContent",
                      buildPayload: { context in
                          GetSigningDocumentContentRequest(reference: reference(context),
                                                           documentID: context.pathParameters["documentId"] ?? "")
                              .serialized()
                      },
                      renderResponse: { payload, _ in
                          let reply = try SigningDocumentContentReply(serialized: payload)
                          return .binary(reply.content, contentType: reply.contentType, headers: [
                              ("X-Content-SHA256", reply.sha256), ("X-Content-Type-Options", "nosniff"),
                              ("Content-Disposition", "attachment"),
                          ])
                      }))),
            Route("POST", "/v1/signing/requests/{reference}/key", access: either, action: .service(ServiceCall(
                service: service, method: "signing.IssuePlatformKey", successStatus: 201,
                buildPayload: { context in IssuePlatformSigningKeyRequest(reference: reference(context)).serialized() },
                renderReply: { payload, _ in
                    let reply = try IssuePlatformSigningKeyReply(serialized: payload)
                    return .object([("keyId", .string(reply.keyID)), ("algorithm", .string(reply.algorithm)),
                                    ("secret", .string(Data(reply.secret).base64EncodedString())),
                                    ("expiresAt", .string(UTCTimestamp.iso8601(milliseconds: reply.expiresAtMs)))])
                }))),
            Route("GET", "/v1/signing/requests/{reference}/evidence", access: backend, action: .service(ServiceCall(
                service: service, method: "signing.GetEvidence",
                buildPayload: { context in GetSigningEvidenceRequest(reference: reference(context)).serialized() },
                renderResponse: { payload, _ in
                    // The sealed bytes exactly: re-encoding could change what the seal covers.
                    .binary(try SigningEvidenceReply(serialized: payload).bundleJSON, contentType: "application/json")
                }))),
            Route("POST", "/v1/signing/keys", access: either, action: .service(ServiceCall(
                service: service, method: "signing.EnrolKey",
                buildPayload: { context in try SigningRequestBody.enrolKey(context).serialized() },
                renderResponse: { payload, _ in
                    let reply = try EnrolSigningKeyReply(serialized: payload)
                    return .json(.object([("keyId", .string(reply.keyID)), ("algorithm", .string(reply.algorithm)),
                                          ("fingerprint", .string(reply.fingerprint))]),
                                 status: reply.created ? 201 : 200)
                }))),
            Route("POST", "/v1/signing/sign", access: either, bodyLimit: .upload, action: .service(ServiceCall(
                service: service, method: "signing.Sign",
                buildPayload: { context in try SigningRequestBody.sign(context).serialized() },
                renderReply: { payload, _ in
                    let reply = try SignDocumentReply(serialized: payload)
                    return .object([("reference", .string(reply.reference)), ("documentId", .string(reply.documentID)),
                                    ("keyId", .string(reply.keyID)),
                                    ("signedAt", .string(UTCTimestamp.iso8601(milliseconds: reply.signedAtMs))),
                                    ("replayed", .bool(reply.replayed)),
                                    ("unsignedDocuments", .array(reply.unsignedDocumentIDs.map(JSONValue.string)))])
                }))),
            Route("POST", "/v1/signing/finish", access: either, action: .service(ServiceCall(
                service: service, method: "signing.Finish",
                buildPayload: { context in
                    let reader = JSONFieldReader(try context.jsonBody())
                    return FinishSigningRequest(reference: try reader.requiredString("reference", maxLength: 100))
                        .serialized()
                },
                renderResponse: { payload, context in
                    let reply = try FinishSigningReply(serialized: payload)
                    guard reply.sealed else {
                        let error = APIError(status: 409, code: "unsigned_documents",
                                             message: "every document must be signed before finishing",
                                             field: "reference")
                        guard case let .object(pairs) = error.json(requestID: context.requestID) else {
                            return .json(error.json(requestID: context.requestID), status: 409)
                        }
                        return .json(.object(pairs + [("unsignedDocuments",
                                                       .array(reply.unsignedDocumentIDs.map(JSONValue.string)))]),
                                     status: 409)
                    }
                    return .json(.object([("reference", .string(reply.reference)), ("status", .string("sealed")),
                                          ("sealedAt", .string(UTCTimestamp.iso8601(milliseconds: reply.sealedAtMs))),
                                          ("alreadySealed", .bool(reply.alreadySealed))]))
                }))),
            Route("GET", "/v1/signing/platform-key", access: .open, action: .service(ServiceCall(
                service: service, method: "signing.GetPlatformKey",
                buildPayload: { _ in GetPlatformSigningKeyRequest().serialized() },
                renderReply: { payload, _ in
                    let reply = try PlatformSigningKeyReply(serialized: payload)
                    return .object([("algorithm", .string(reply.algorithm)),
                                    ("publicKey", .string(Data(reply.publicKey).base64EncodedString())),
                                    ("fingerprint", .string(reply.fingerprint))])
                }))),
        ]
    }

    static func reference(_ context: RouteContext) -> String { context.pathParameters["reference"] ?? "" }
}

/// JSON of signing requests.
enum SigningJSON {
    static func request(_ reply: SigningRequestReply) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("reference", .string(reply.reference)), ("status", .string(reply.status)),
            ("sessionId", .string(reply.sessionID)),
            ("createdAt", .string(UTCTimestamp.iso8601(milliseconds: reply.createdAtMs))),
            ("expiresAt", .string(UTCTimestamp.iso8601(milliseconds: reply.expiresAtMs))),
            ("sealedAt", reply.sealedAtMs > 0 ? .string(UTCTimestamp.iso8601(milliseconds: reply.sealedAtMs)) : .null),
            ("documents", .array(reply.documents.map { d in
                .object([("documentId", .string(d.documentID)), ("name", .string(d.name)),
                         ("contentType", .string(d.contentType)), ("sha256", .string(d.sha256)),
                         ("sizeBytes", .integer(d.sizeBytes)), ("signed", .bool(d.signedAtMs > 0)),
                         ("signedAt", d.signedAtMs > 0 ? .string(UTCTimestamp.iso8601(milliseconds: d.signedAtMs)) : .null),
                         ("keyId", d.keyID.isEmpty ? .null : .string(d.keyID))])
            })),
            ("callbackUrl", reply.callbackURL.isEmpty ? .null : .string(reply.callbackURL)),
        ]
        if let signer = reply.signer {
            pairs.append(("signer", .object([("identityType", .string(signer.identityType)),
                                             ("identityNo", .string(signer.identityNo)), ("name", .string(signer.name)),
                                             ("surname", .string(signer.surname))])))
        }
        return .object(pairs)
    }
}

/// Reads signing JSON bodies: the gateway checks JSON types, decodes base64 and caps lengths; SigningService checks
/// the rules (keys, signatures, hashes, sizes).
enum SigningRequestBody {
    static func create(_ context: RouteContext) throws -> CreateSigningRequest {
        let body = try context.jsonBody()
        let reader = JSONFieldReader(body)
        let documents = try reader.requiredObjectArray("documents").map { fields in
            return SigningDocumentUpload(
                name: try fields.requiredString("name", maxLength: 200),
                contentType: try fields.string("contentType", maxLength: 100) ?? "application/octet-stream",
                content: try JSONFieldReader.strictBase64(try fields.requiredString("content", maxLength: Int.max),
                                                         field: fields.fieldPath("content")))
        }
        let ttl = try reader.integer("ttlSeconds") ?? 0
        return CreateSigningRequest(reference: try reader.string("reference", maxLength: 100) ?? "",
                                    sessionID: try reader.requiredString("sessionId", maxLength: 64),
                                    documents: documents,
                                    callbackURL: try reader.string("callbackUrl", maxLength: 2000) ?? "",
                                    ttlSeconds: ttl)
    }

    static func enrolKey(_ context: RouteContext) throws -> EnrolSigningKeyRequest {
        let reader = JSONFieldReader(try context.jsonBody())
        let algorithm = try reader.requiredString("algorithm", maxLength: 32)
        let text = try reader.requiredString("publicKey", maxLength: 8192)
        // PEM text is passed as it is; anything else must be base64 (of SPKI DER or the raw key).
        let key = text.hasPrefix("-----BEGIN") ? Array(text.utf8)
            : try JSONFieldReader.strictBase64(text, field: "publicKey")
        return EnrolSigningKeyRequest(algorithm: algorithm, publicKey: key)
    }

    static func sign(_ context: RouteContext) throws -> SignDocumentRequest {
        let reader = JSONFieldReader(try context.jsonBody())
        let data = try reader.string("data", maxLength: Int.max)
        return SignDocumentRequest(
            reference: try reader.requiredString("reference", maxLength: 100),
            documentID: try reader.requiredString("documentId", maxLength: 64),
            keyID: try reader.requiredString("keyId", maxLength: 64),
            signature: try JSONFieldReader.strictBase64(try reader.requiredString("signature", maxLength: 1024),
                                                       field: "signature"),
            shownData: try data.map { try JSONFieldReader.strictBase64($0, field: "data") })
    }
}
