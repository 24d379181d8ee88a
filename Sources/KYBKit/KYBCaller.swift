import KYCCrypto
import KYCMessages

/// Who makes a KYB request, as the handlers pass it to the stores: the tenant every read and write is scoped by,
/// the principal recorded as author, and the request's idempotency key.
public struct KYBCaller: Sendable, Equatable {
    public let tenant: String
    /// API key id or session id.
    public let principalID: String
    public let requestID: String
    /// SHA-256 of request id, method and payload: a broker retry of the same request has the same key, while a
    /// different request that reuses a client's `X-Request-Id` does not.
    public let requestKey: String

    public init(tenant: String, principalID: String, requestID: String, requestKey: String) {
        self.tenant = tenant
        self.principalID = principalID
        self.requestID = requestID
        self.requestKey = requestKey
    }

    /// The caller of `envelope`.
    public init(_ envelope: RequestEnvelope) {
        var material = Array(envelope.requestID.utf8)
        material.append(0)
        material.append(contentsOf: Array(envelope.method.utf8))
        material.append(0)
        material.append(contentsOf: envelope.payload)
        self.init(tenant: envelope.tenant, principalID: envelope.principal.id, requestID: envelope.requestID,
                  requestKey: SHA256.hex(material))
    }
}
