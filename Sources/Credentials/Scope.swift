/// Permissions a credential carries. API keys carry `backend` (and `admin` when created with `--admin`); mobile
/// session tokens carry the mobile scopes their session was opened with (all of them by default).
public enum Scope {
    public static let backend = "backend"
    public static let admin = "admin"

    public static let appointments = "appointments"
    public static let kyb = "kyb"
    public static let signing = "signing"
    public static let capture = "capture"

    /// Scopes a mobile session may be given.
    public static let mobile: [String] = [appointments, kyb, signing, capture]
}
