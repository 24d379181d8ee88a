import Validation

/// The display name the mobile SDKs use for a stored identity document code.
enum IdentityDocumentTypeName {
    static func display(_ code: String) -> String {
        IdentityDocumentType(rawValue: code)?.displayName ?? code
    }
}
