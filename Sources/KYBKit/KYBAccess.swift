import KYCMessages
import Messaging

/// Who may call a KYB operation. The gateway already checks credentials and scopes per route; the service checks
/// again from the envelope's principal, because it alone knows which business a mobile session may touch.
enum KYBAccess {
    /// Customer backends only (API key).
    case apiKey
    /// API keys with the `admin` scope.
    case admin
    /// API keys, or mobile sessions bound to this very business (any other business answers not found, so a
    /// session cannot even learn that another business id exists).
    case apiKeyOrBoundSession(businessUID: String)
    /// API keys or any mobile session with the `kyb` scope.
    case apiKeyOrSession

    static let sessionScope = "kyb"
    static let adminScope = "admin"

    func authorize(_ principal: Principal) throws {
        switch principal.kind {
        case .unspecified:
            throw ServiceError(status: .permissionDenied, code: "permission_denied",
                               message: "the request carries no authenticated principal")
        case .apiKey:
            if case .admin = self, !principal.scopes.contains(Self.adminScope) {
                throw ServiceError(status: .permissionDenied, code: "insufficient_scope",
                                   message: "this operation needs an admin API key")
            }
        case .session:
            guard principal.scopes.contains(Self.sessionScope) else {
                throw ServiceError(status: .permissionDenied, code: "insufficient_scope",
                                   message: "this session token lacks the 'kyb' scope")
            }
            switch self {
            case .apiKey, .admin:
                throw ServiceError(status: .permissionDenied, code: "api_key_required",
                                   message: "this operation is for customer backends: use an API key")
            case let .apiKeyOrBoundSession(businessUID):
                guard !principal.businessUID.isEmpty, principal.businessUID == businessUID else {
                    throw BusinessRegistry.notFound
                }
            case .apiKeyOrSession:
                break
            }
        }
    }
}
