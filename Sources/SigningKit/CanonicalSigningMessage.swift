/// The exact bytes a device signs for one document (docs/signing.md):
///
///     "KYC-SIGN-v1\n" + tenant + "\n" + reference + "\n" + documentId + "\n" + sha256hex(document) + "\n"
///
/// UTF-8, each line ending in a single LF, the hash in lowercase hex. Binding the tenant and reference stops a
/// signature from being moved to another customer's or another request's document of the same content.
public enum CanonicalSigningMessage {
    public static let version = "KYC-SIGN-v1"

    public static func bytes(tenant: String, reference: String, documentID: String, documentSHA256: String) -> [UInt8] {
        Array("\(version)\n\(tenant)\n\(reference)\n\(documentID)\n\(documentSHA256)\n".utf8)
    }
}
