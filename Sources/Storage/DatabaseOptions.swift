/// How a `Database` connection is set up. Every field has a default suited to a KYC Suite service.
public struct DatabaseOptions: Sendable {
    /// How long a statement waits for another connection's lock (usually another process on the same file) before
    /// failing with `.busy`. Inside one process the `Database` lock already serializes access. Default 5000 ms.
    public var busyTimeoutMilliseconds: Int
    /// How many prepared statements are kept per connection, least recently used dropped first. 0 disables caching.
    /// Default 64.
    public var statementCacheCapacity: Int
    /// `journal_mode=WAL` for files: readers do not block the writer and a commit is one append. Ignored for
    /// `:memory:`. Opening fails with `.io` when the file system refuses WAL. Default true.
    public var writeAheadLog: Bool
    /// `foreign_keys=ON`: SQLite leaves foreign keys unenforced unless asked, per connection. Default true.
    public var enforceForeignKeys: Bool

    public init(
        busyTimeoutMilliseconds: Int = 5_000,
        statementCacheCapacity: Int = 64,
        writeAheadLog: Bool = true,
        enforceForeignKeys: Bool = true
    ) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.statementCacheCapacity = statementCacheCapacity
        self.writeAheadLog = writeAheadLog
        self.enforceForeignKeys = enforceForeignKeys
    }
}
