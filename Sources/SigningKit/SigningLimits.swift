import KYCCore

/// Sizes and lifetimes of signing requests. The gateway limits the HTTP body (`KYC_MAX_UPLOAD_BYTES`, base64 is 4/3
/// of the bytes); these apply to the decoded documents and keep every envelope under the 16 MiB message limit.
public struct SigningLimits: Sendable, Equatable {
    /// Largest decoded document. Default 5 MiB.
    public var maxDocumentBytes = 5 << 20
    /// Largest sum of decoded documents in one request. Default 10 MiB.
    public var maxRequestBytes = 10 << 20
    /// Most documents in one request. Default 20.
    public var maxDocuments = 20
    /// Lifetime of a request when the backend names none. Default 24 h.
    public var defaultTTLSeconds: Int64 = 24 * 3600
    /// Longest lifetime a backend may ask for. Default 30 days.
    public var maxTTLSeconds: Int64 = 30 * 24 * 3600

    public init() {}

    /// The environment keys SigningService reads on top of the common service keys.
    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_SIGNING_MAX_DOCUMENT_BYTES", "5242880", "largest decoded document to sign (413 above)"),
        ConfigurationKey("KYC_SIGNING_MAX_REQUEST_BYTES", "10485760",
                         "largest sum of decoded documents in one signing request (413 above; keep under 16 MiB)"),
        ConfigurationKey("KYC_SIGNING_MAX_DOCUMENTS", "20", "most documents in one signing request"),
        ConfigurationKey("KYC_SIGNING_DEFAULT_TTL_SECONDS", "86400", "lifetime of a signing request by default"),
    ]

    /// Reads `keys`, defaulting what is unset; throws listing every invalid value.
    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws -> SigningLimits {
        var env = environment
        var limits = SigningLimits()
        limits.maxDocumentBytes = env.int("KYC_SIGNING_MAX_DOCUMENT_BYTES", default: limits.maxDocumentBytes,
                                          range: 1024...(15 << 20))
        limits.maxRequestBytes = env.int("KYC_SIGNING_MAX_REQUEST_BYTES", default: limits.maxRequestBytes,
                                         range: 1024...(15 << 20))
        limits.maxDocuments = env.int("KYC_SIGNING_MAX_DOCUMENTS", default: limits.maxDocuments, range: 1...200)
        limits.defaultTTLSeconds = Int64(env.int("KYC_SIGNING_DEFAULT_TTL_SECONDS",
                                                 default: Int(limits.defaultTTLSeconds), range: 60...(30 * 24 * 3600)))
        try env.validate()
        return limits
    }
}
