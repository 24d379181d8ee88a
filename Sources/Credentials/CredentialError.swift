/// A credential operation refused for a reason the caller can act on.
public struct CredentialError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case invalidTenant = "invalid_tenant"
        case unknownScope = "unknown_scope"
        case invalidTTL = "invalid_ttl"
        case notFound = "not_found"
    }

    public let code: Code
    public let field: String
    public let message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { "\(code.rawValue) (\(field)): \(message)" }
}
