import Foundation

/// The legal forms a business may have.
public enum BusinessType: String, Sendable, CaseIterable {
    /// Limited şirket (Ltd. Şti.).
    case limited
    /// Anonim şirket (A.Ş.).
    case anonymous
    /// Şahıs şirketi: one person trading under their own name.
    case soleProprietorship = "sole_proprietorship"

    /// Accepts the wire names, ignoring case and surrounding spaces.
    public init?(wireName: String) {
        let key = wireName.trimmingCharacters(in: .whitespaces).lowercased()
        guard let type = BusinessType(rawValue: key) else { return nil }
        self = type
    }

    /// Which tax numbers this form may register with: every company has a 10-digit VKN; a sole proprietor may use
    /// their 11-digit T.C. identity number instead.
    public var acceptsIdentityNumberAsTaxNumber: Bool { self == .soleProprietorship }
}
