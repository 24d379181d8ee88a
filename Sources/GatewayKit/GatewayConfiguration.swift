import Foundation
import KYCCore

/// Everything the gateway process can be configured with; every field has a default that runs on one machine.
public struct GatewayConfiguration: Sendable {
    /// Address the HTTP server listens on.
    public var httpHost = "127.0.0.1"
    /// Port the HTTP server listens on (0 picks a free one).
    public var httpPort = 8080
    /// Where service workers connect to the broker (`tcp://host:port`, bound by the gateway).
    public var brokerEndpoint = "tcp://127.0.0.1:5555"
    /// Where services connect to the broker to call other services (webhook events); nil: the broker endpoint's
    /// port + 1 (`tcp://127.0.0.1:5556`), as services assume when `KYC_BROKER_CLIENT_ENDPOINT` is unset.
    public var brokerClientEndpoint: String? = nil
    /// Directory holding `gateway.sqlite` (tenants, API keys, sessions).
    public var dataDirectory = "./data"
    /// Largest request body accepted; larger ones get 413.
    public var maxBodyBytes = 1 << 20
    /// Largest request body accepted by routes that take files (KYB document uploads); larger ones get 413.
    public var maxUploadBytes = 16 << 20
    /// How long a request may wait for its service reply before 504.
    public var requestTimeoutMilliseconds = 10_000
    /// libmicrohttpd worker threads.
    public var httpThreads = 2
    /// Simultaneous HTTP connections accepted.
    public var connectionLimit = 1024
    /// Idle connections are closed after this many seconds.
    public var connectionTimeoutSeconds = 30
    /// Services `GET /readyz` requires at least one live worker of.
    public var requiredServices = ["appointment", "kyb", "signing", "capture", "webhook"]
    public var logLevel = LogLevel.info

    public init() {}

    /// The environment variables, for `--help` and the README table.
    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_HTTP_HOST", "127.0.0.1", "address the HTTP API listens on"),
        ConfigurationKey("KYC_HTTP_PORT", "8080", "port the HTTP API listens on (0 = any free port)"),
        ConfigurationKey("KYC_BROKER_ENDPOINT", "tcp://127.0.0.1:5555", "broker endpoint workers connect to"),
        ConfigurationKey("KYC_BROKER_CLIENT_ENDPOINT", "tcp://127.0.0.1:5556",
                         "broker endpoint services call other services through (default: broker port + 1)"),
        ConfigurationKey("KYC_DATA_DIR", "./data", "directory of each service's SQLite database"),
        ConfigurationKey("KYC_MAX_BODY_BYTES", "1048576", "largest request body accepted (413 above)"),
        ConfigurationKey("KYC_MAX_UPLOAD_BYTES", "16777216",
                         "largest request body of upload routes, e.g. KYB documents (413 above)"),
        ConfigurationKey("KYC_REQUEST_TIMEOUT_MS", "10000", "time a request may wait for its service (504 after)"),
        ConfigurationKey("KYC_HTTP_THREADS", "2", "HTTP worker threads"),
        ConfigurationKey("KYC_HTTP_CONNECTION_LIMIT", "1024", "simultaneous HTTP connections"),
        ConfigurationKey("KYC_HTTP_CONNECTION_TIMEOUT_S", "30", "idle HTTP connection timeout in seconds"),
        ConfigurationKey("KYC_REQUIRED_SERVICES", "appointment,kyb,signing,capture,webhook",
                         "services /readyz waits for (comma-separated)"),
        ConfigurationKey("LOG_LEVEL", "info", "trace, debug, info, notice, warning, error or critical"),
    ]

    /// Reads the keys listed in `keys` from the environment, defaulting what is unset; throws listing every invalid
    /// value.
    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws
        -> GatewayConfiguration {
        var env = environment
        var config = GatewayConfiguration()
        config.httpHost = env.string("KYC_HTTP_HOST", default: config.httpHost)
        config.httpPort = env.int("KYC_HTTP_PORT", default: config.httpPort, range: 0...65535)
        config.brokerEndpoint = env.string("KYC_BROKER_ENDPOINT", default: config.brokerEndpoint)
        let clientEndpoint = env.string("KYC_BROKER_CLIENT_ENDPOINT", default: "")
        config.brokerClientEndpoint = clientEndpoint.isEmpty ? nil : clientEndpoint
        config.dataDirectory = env.string("KYC_DATA_DIR", default: config.dataDirectory)
        config.maxBodyBytes = env.int("KYC_MAX_BODY_BYTES", default: config.maxBodyBytes, range: 1024...(256 << 20))
        config.maxUploadBytes = env.int("KYC_MAX_UPLOAD_BYTES", default: config.maxUploadBytes,
                                        range: 1024...(256 << 20))
        config.requestTimeoutMilliseconds = env.int("KYC_REQUEST_TIMEOUT_MS", default: config.requestTimeoutMilliseconds,
                                                    range: 10...600_000)
        config.httpThreads = env.int("KYC_HTTP_THREADS", default: config.httpThreads, range: 1...64)
        config.connectionLimit = env.int("KYC_HTTP_CONNECTION_LIMIT", default: config.connectionLimit,
                                         range: 1...100_000)
        config.connectionTimeoutSeconds = env.int("KYC_HTTP_CONNECTION_TIMEOUT_S",
                                                  default: config.connectionTimeoutSeconds, range: 1...3600)
        let services = env.string("KYC_REQUIRED_SERVICES", default: config.requiredServices.joined(separator: ","))
        config.requiredServices = services.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        config.logLevel = env.logLevel()
        try env.validate()
        return config
    }
}
