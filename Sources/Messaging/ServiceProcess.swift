import Foundation
import KYCCore

/// Configuration every service process reads from its environment.
public struct ServiceProcessConfiguration: Sendable {
    /// Where the gateway's broker listens for workers.
    public var brokerEndpoint = "tcp://127.0.0.1:5555"
    /// Directory holding the service's SQLite database.
    public var dataDirectory = "./data"
    /// Worker threads in this process; each is a separate worker to the broker.
    public var workerThreads = 2
    /// Largest message accepted from the broker; larger ones are dropped by libzmq.
    public var maxMessageBytes = 16 << 20
    public var logLevel = LogLevel.info

    public init() {}

    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_BROKER_ENDPOINT", "tcp://127.0.0.1:5555", "the gateway's broker endpoint to connect to"),
        ConfigurationKey("KYC_DATA_DIR", "./data", "directory of the service's SQLite database"),
        ConfigurationKey("KYC_WORKER_THREADS", "2", "worker threads (each a separate worker to the broker)"),
        ConfigurationKey("KYC_MAX_MESSAGE_BYTES", "16777216", "largest message accepted from the broker"),
        ConfigurationKey("LOG_LEVEL", "info", "trace, debug, info, notice, warning, error or critical"),
    ]

    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws
        -> ServiceProcessConfiguration {
        var env = environment
        var config = ServiceProcessConfiguration()
        config.brokerEndpoint = env.string("KYC_BROKER_ENDPOINT", default: config.brokerEndpoint)
        config.dataDirectory = env.string("KYC_DATA_DIR", default: config.dataDirectory)
        config.workerThreads = env.int("KYC_WORKER_THREADS", default: config.workerThreads, range: 1...64)
        config.maxMessageBytes = env.int("KYC_MAX_MESSAGE_BYTES", default: config.maxMessageBytes,
                                         range: 1024...(256 << 20))
        config.logLevel = env.logLevel()
        try env.validate()
        return config
    }

    /// `<dataDirectory>/<name>.sqlite`.
    public func databasePath(_ name: String) -> String {
        (dataDirectory as NSString).appendingPathComponent("\(name).sqlite")
    }
}

/// The whole life of a service executable: `--help`, configuration, logging, the router, workers connected to the
/// broker, and a clean stop on SIGINT/SIGTERM. Service `main.swift` files are one call to this.
public enum ServiceProcess {
    public static func run(executable: String, service: String, summary: String,
                           makeRouter: (ServiceProcessConfiguration, Logger) throws -> ServiceRouter) -> Never {
        handleHelpFlag(executable: executable, summary: summary, keys: ServiceProcessConfiguration.keys)
        var configuration = ServiceProcessConfiguration()
        exitOnConfigurationError(executable) { configuration = try ServiceProcessConfiguration.fromEnvironment() }
        let logger = Logger(service: service, level: configuration.logLevel)
        let shutdown = ShutdownSignal()
        shutdown.install()
        do {
            let router = try makeRouter(configuration, logger)
            var workerConfiguration = ServiceWorkerConfiguration(service: service,
                                                                 brokerEndpoint: configuration.brokerEndpoint,
                                                                 threads: configuration.workerThreads)
            workerConfiguration.maxMessageBytes = Int64(configuration.maxMessageBytes)
            let worker = try ServiceWorker(configuration: workerConfiguration, router: router, logger: logger)
            logger.info("serving", ["broker": configuration.brokerEndpoint, "threads": String(configuration.workerThreads),
                                    "methods": router.methods.joined(separator: ","),
                                    "version": KYCSuiteVersion.current])
            try worker.run(until: shutdown)
            logger.info("stopped")
            exit(0)
        } catch {
            logger.critical("cannot run", ["error": String(describing: error)])
            exit(1)
        }
    }
}
