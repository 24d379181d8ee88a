/// How the HTTP server listens and which limits protect it from slow or hostile clients. Every field has a default;
/// the executable that embeds the server reads overrides from its own environment keys.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// IP address to bind (IPv4 or IPv6 literal). Default `127.0.0.1`.
    public var host: String
    /// TCP port; 0 picks a free ephemeral port (read it back from `HTTPServer.port`). Default 8080.
    public var port: Int
    /// Threads that run the event loop and the handlers' fast paths. Default 2.
    public var threadPoolSize: Int
    /// Largest request body accepted; longer bodies are answered 413. Default 1 MiB.
    public var maxBodyBytes: Int
    /// Most connections open at once, over all clients. Default 1024.
    public var connectionLimit: Int
    /// Most connections open at once from one IP address; `nil` for no per-address limit. Default `nil`.
    public var perIPConnectionLimit: Int?
    /// Seconds of inactivity after which an idle connection is closed. Suspended connections (waiting for a
    /// handler's reply) are not subject to it. Default 30.
    public var connectionTimeoutSeconds: Int
    /// Length of the kernel's queue of connections not yet accepted. Default 511.
    public var listenBacklog: Int

    public init(host: String = "127.0.0.1", port: Int = 8080, threadPoolSize: Int = 2, maxBodyBytes: Int = 1 << 20,
                connectionLimit: Int = 1024, perIPConnectionLimit: Int? = nil, connectionTimeoutSeconds: Int = 30,
                listenBacklog: Int = 511) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.listenBacklog = listenBacklog
    }

    /// Every problem with the values, empty when they are usable.
    public var problems: [String] {
        var found: [String] = []
        if !(0...65_535).contains(port) { found.append("port \(port): expected 0...65535") }
        if !(1...256).contains(threadPoolSize) { found.append("threadPoolSize \(threadPoolSize): expected 1...256") }
        if maxBodyBytes < 0 || maxBodyBytes > Int(Int32.max) {
            found.append("maxBodyBytes \(maxBodyBytes): expected 0...\(Int32.max)")
        }
        if !(1...1_000_000).contains(connectionLimit) {
            found.append("connectionLimit \(connectionLimit): expected 1...1000000")
        }
        if let perIPConnectionLimit, !(1...1_000_000).contains(perIPConnectionLimit) {
            found.append("perIPConnectionLimit \(perIPConnectionLimit): expected 1...1000000 or nil")
        }
        if !(1...86_400).contains(connectionTimeoutSeconds) {
            found.append("connectionTimeoutSeconds \(connectionTimeoutSeconds): expected 1...86400")
        }
        if !(1...65_535).contains(listenBacklog) { found.append("listenBacklog \(listenBacklog): expected 1...65535") }
        if ListenAddress(host: host, port: 0) == nil { found.append("host \(host): expected an IPv4 or IPv6 address") }
        return found
    }
}
