import KYCCore

/// How much one upload may carry. The gateway already limits the HTTP body (base64 is 4/3 of the bytes); these
/// limits apply to the decoded bytes and keep every request envelope under the 16 MiB ZeroMQ message limit.
public struct KYBLimits: Sendable, Equatable {
    /// Largest decoded document. Default 5 MiB.
    public var maxDocumentBytes = 5 << 20
    /// Largest sum of decoded documents in one request. Default 12 MiB.
    public var maxUploadBytes = 12 << 20
    /// Most documents in one request. Default 20.
    public var maxDocumentsPerUpload = 20

    public init() {}

    /// The environment keys KYBService reads on top of the common service keys.
    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_KYB_MAX_DOCUMENT_BYTES", "5242880", "largest decoded KYB document (413 above)"),
        ConfigurationKey("KYC_KYB_MAX_UPLOAD_BYTES", "12582912",
                         "largest sum of decoded documents in one KYB upload (413 above; keep under 16 MiB)"),
        ConfigurationKey("KYC_KYB_MAX_DOCUMENTS_PER_UPLOAD", "20", "most documents in one KYB upload"),
    ]

    /// Reads `keys`, defaulting what is unset; throws listing every invalid value.
    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws -> KYBLimits {
        var env = environment
        var limits = KYBLimits()
        limits.maxDocumentBytes = env.int("KYC_KYB_MAX_DOCUMENT_BYTES", default: limits.maxDocumentBytes,
                                          range: 1024...(15 << 20))
        limits.maxUploadBytes = env.int("KYC_KYB_MAX_UPLOAD_BYTES", default: limits.maxUploadBytes,
                                        range: 1024...(15 << 20))
        limits.maxDocumentsPerUpload = env.int("KYC_KYB_MAX_DOCUMENTS_PER_UPLOAD",
                                               default: limits.maxDocumentsPerUpload, range: 1...200)
        try env.validate()
        return limits
    }
}
