/// How a transaction takes SQLite's database lock.
public enum TransactionKind: Sendable {
    /// `BEGIN DEFERRED`: locks on first use. A read followed by a write can fail with `.busy` without waiting when
    /// another connection wrote meanwhile (WAL snapshot conflict), so use it for read-only work.
    case deferred
    /// `BEGIN IMMEDIATE`: takes the write lock at once, waiting up to `busy_timeout`. Read-then-write logic (check
    /// capacity, then book) is race-free under it. The default.
    case immediate
    /// `BEGIN EXCLUSIVE`: like immediate; in WAL mode readers are still allowed.
    case exclusive

    var beginStatement: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        case .exclusive: "BEGIN EXCLUSIVE"
        }
    }
}
