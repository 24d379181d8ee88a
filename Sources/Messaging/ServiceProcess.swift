import Foundation
import KYCCore
import Synchronization

/// Configuration every service process reads from its environment.
public struct ServiceProcessConfiguration: Sendable {
    /// Where the gateway's broker listens for workers.
    public var brokerEndpoint = "tcp://127.0.0.1:5555"
    /// Where the gateway's broker listens for requests from services to other services (`ServiceClient`). When
    /// `KYC_BROKER_CLIENT_ENDPOINT` is unset: the broker endpoint's port + 1, as the gateway assumes.
    public var brokerClientEndpoint = "tcp://127.0.0.1:5556"
    /// Directory holding the service's SQLite database.
    public var dataDirectory = "./data"
    /// Worker threads in this process; each is a separate worker to the broker.
    public var workerThreads = 2
    /// Requests each worker thread may hold at once (queued at it while it runs one); see `ServiceWorkerConfiguration`.
    public var workerCapacity = ServiceWorkerConfiguration.defaultCapacity
    /// Largest message accepted from the broker; larger ones are dropped by libzmq.
    public var maxMessageBytes = 16 << 20
    public var logLevel = LogLevel.info

    public init() {}

    public static let keys: [ConfigurationKey] = [
        ConfigurationKey("KYC_BROKER_ENDPOINT", "tcp://127.0.0.1:5555", "the gateway's broker endpoint to connect to"),
        ConfigurationKey("KYC_BROKER_CLIENT_ENDPOINT", "tcp://127.0.0.1:5556",
                         "the broker's client endpoint, for calls to other services (default: broker port + 1)"),
        ConfigurationKey("KYC_DATA_DIR", "./data", "directory of the service's SQLite database"),
        ConfigurationKey("KYC_WORKER_THREADS", "2", "worker threads (each a separate worker to the broker)"),
        ConfigurationKey("KYC_WORKER_CAPACITY", "\(ServiceWorkerConfiguration.defaultCapacity)",
                         "requests the broker may hand each worker thread before its first reply (pipelining; 1 = one at a time)"),
        ConfigurationKey("KYC_MAX_MESSAGE_BYTES", "16777216", "largest message accepted from the broker"),
        ConfigurationKey("LOG_LEVEL", "info", "trace, debug, info, notice, warning, error or critical"),
    ]

    public static func fromEnvironment(_ environment: EnvironmentReader = EnvironmentReader()) throws
        -> ServiceProcessConfiguration {
        var env = environment
        var config = ServiceProcessConfiguration()
        config.brokerEndpoint = env.string("KYC_BROKER_ENDPOINT", default: config.brokerEndpoint)
        config.brokerClientEndpoint = env.string(
            "KYC_BROKER_CLIENT_ENDPOINT",
            default: BrokerConfiguration.defaultClientEndpoint(forWorkerEndpoint: config.brokerEndpoint)
                ?? config.brokerClientEndpoint)
        config.dataDirectory = env.string("KYC_DATA_DIR", default: config.dataDirectory)
        config.workerThreads = env.int("KYC_WORKER_THREADS", default: config.workerThreads, range: 1...64)
        config.workerCapacity = env.int("KYC_WORKER_CAPACITY", default: config.workerCapacity,
                                        range: 1...WorkerProtocol.maxCapacity)
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
/// broker, background workers, and a clean stop on SIGINT/SIGTERM. Service `main.swift` files are one call to this.
public enum ServiceProcess {
    /// For services without background work.
    public static func run(executable: String, service: String, summary: String,
                           makeRouter: (ServiceProcessConfiguration, Logger) throws -> ServiceRouter) -> Never {
        run(executable: executable, service: service, summary: summary) {
            (configuration: ServiceProcessConfiguration, logger: Logger, _: BackgroundWorkers) throws -> ServiceRouter in
            try makeRouter(configuration, logger)
        }
    }

    /// For services with background work (an `OutboxRelay`, say): `makeRouter` adds it to `background`. Background
    /// workers start before the service workers connect, and stop after they have stopped (so an event a last
    /// request wrote is still relayed), in reverse order of adding.
    public static func run(executable: String, service: String, summary: String,
                           makeRouter: (ServiceProcessConfiguration, Logger, BackgroundWorkers) throws -> ServiceRouter)
        -> Never
    {
        handleHelpFlag(executable: executable, summary: summary, keys: ServiceProcessConfiguration.keys)
        var configuration = ServiceProcessConfiguration()
        exitOnConfigurationError(executable) { configuration = try ServiceProcessConfiguration.fromEnvironment() }
        let logger = Logger(service: service, level: configuration.logLevel)
        let shutdown = ShutdownSignal()
        shutdown.install()
        let background = BackgroundWorkers()
        do {
            let router = try makeRouter(configuration, logger, background)
            var workerConfiguration = ServiceWorkerConfiguration(service: service,
                                                                 brokerEndpoint: configuration.brokerEndpoint,
                                                                 threads: configuration.workerThreads)
            workerConfiguration.maxMessageBytes = Int64(configuration.maxMessageBytes)
            workerConfiguration.capacity = configuration.workerCapacity
            let worker = try ServiceWorker(configuration: workerConfiguration, router: router, logger: logger)
            background.startAll()
            logger.info("serving", ["broker": configuration.brokerEndpoint, "threads": String(configuration.workerThreads),
                                    "methods": router.methods.joined(separator: ","),
                                    "background": String(background.count),
                                    "version": KYCSuiteVersion.current])
            try worker.run(until: shutdown)
            background.stopAll()
            logger.info("stopped")
            exit(0)
        } catch {
            background.stopAll()
            logger.critical("cannot run", ["error": String(describing: error)])
            exit(1)
        }
    }
}

/// Work a service process runs beside its request workers, on its own threads (a webhook outbox relay, say).
public protocol BackgroundWorker: Sendable {
    /// Starts the work; returns at once.
    func start()
    /// Stops the work and waits for it to end. Idempotent.
    func stop()
}

/// The background workers of one service process, started and stopped by `ServiceProcess.run`.
public final class BackgroundWorkers: Sendable {
    private let workers = Mutex<[any BackgroundWorker]>([])

    public init() {}

    /// Adds a worker; `ServiceProcess.run` starts it once the router is built.
    public func add(_ worker: any BackgroundWorker) {
        workers.withLock { $0.append(worker) }
    }

    /// How many were added.
    public var count: Int { workers.withLock { $0.count } }

    /// Starts every worker, in order of adding.
    public func startAll() {
        for worker in workers.withLock({ $0 }) { worker.start() }
    }

    /// Stops every worker, newest first.
    public func stopAll() {
        for worker in workers.withLock({ $0 }).reversed() { worker.stop() }
    }
}
