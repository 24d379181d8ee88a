/// The platform's version, reported by every service's `Describe` answer and `--help`.
public enum KYCSuiteVersion {
    public static let current = "0.1.0"
}
