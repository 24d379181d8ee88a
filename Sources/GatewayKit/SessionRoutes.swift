import Credentials
import Foundation
import KYCCore

/// Mobile sessions: a customer backend opens one for its user and hands the token to the app.
enum SessionRoutes {
    static func routes(_ dependencies: GatewayDependencies) -> [Route] {
        let store = dependencies.credentials
        return [
            Route("POST", "/v1/sessions", access: .apiKey(scope: Scope.backend), action: .local { context in
                try openSession(context, store: store)
            }),
            Route("DELETE", "/v1/sessions/{sessionId}", access: .apiKey(scope: Scope.backend), action: .local { context in
                let sessionID = context.pathParameters["sessionId"] ?? ""
                guard try store.revokeSession(tenant: context.caller!.tenant, sessionID: sessionID) else {
                    throw APIError(status: 404, code: "session_not_found", message: "no active session with this id",
                                   field: "sessionId")
                }
                return .json(.object([("sessionId", .string(sessionID)), ("revoked", .bool(true))]))
            }),
        ]
    }

    static func openSession(_ context: RouteContext, store: CredentialStore) throws -> RouteResponse {
        let body = try context.jsonBody()
        var reader = JSONFieldReader(body)
        var identity: SessionIdentity?
        if let object = try reader.object("identity") {
            var fields = JSONFieldReader(object, path: "identity")
            let identityNo = try fields.requiredString("identityNo", maxLength: 64)
            identity = SessionIdentity(identityType: try fields.string("identityType", maxLength: 64) ?? "",
                                       identityNo: identityNo,
                                       name: try fields.string("name", maxLength: 200) ?? "",
                                       surname: try fields.string("surname", maxLength: 200) ?? "",
                                       isPriorityCustomer: try fields.bool("isPriorityCustomer") ?? false)
        }
        let scopes = try reader.stringArray("scopes") ?? []
        let ttl = try reader.integer("ttlSeconds")
        let businessUID = try reader.string("businessUId", maxLength: 64)
        do {
            let session = try store.openSession(tenant: context.caller!.tenant, createdBy: context.caller!.id,
                                                identity: identity, scopes: scopes, ttlSeconds: ttl.map { Int($0) },
                                                businessUID: businessUID)
            return .json(.object([
                ("sessionId", .string(session.sessionID)),
                ("token", .string(session.token)),
                ("expiresAt", .string(UTCTimestamp.iso8601(milliseconds: session.expiresAtMs))),
                ("scopes", .array(session.scopes.map(JSONValue.string))),
            ] + (businessUID.map { [("businessUId", JSONValue.string($0))] } ?? [])), status: 201)
        } catch let error as CredentialError {
            throw APIError.invalidField(error.field, error.code.rawValue, error.message)
        }
    }
}
