import Credentials
import HTTPServer
import KYCCore
import KYCMessages
import Messaging
import ZeroMQ

/// The gateway process's parts, started and stopped in order: credential store, broker (workers connect to it),
/// then the HTTP server; stopping reverses that so that no request is accepted that could not be answered.
public final class GatewayRuntime: Sendable {
    public let configuration: GatewayConfiguration
    public let application: GatewayApplication
    private let context: ZMQContext
    private let broker: Broker
    private let server: HTTPServer
    private let logger: Logger

    public init(configuration: GatewayConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        let credentials = try CredentialStore(dataDirectory: configuration.dataDirectory)
        context = try ZMQContext()
        var brokerConfiguration = BrokerConfiguration(workerEndpoint: configuration.brokerEndpoint)
        brokerConfiguration.defaultRequestTimeoutMilliseconds = Int64(configuration.requestTimeoutMilliseconds)
        broker = try Broker(configuration: brokerConfiguration, context: context, logger: logger)
        application = GatewayApplication(configuration: configuration, credentials: credentials, dispatcher: broker,
                                         logger: logger)
        let httpConfiguration = HTTPServerConfiguration(
            host: configuration.httpHost, port: configuration.httpPort, threadPoolSize: configuration.httpThreads,
            maxBodyBytes: configuration.maxBodyBytes, connectionLimit: configuration.connectionLimit,
            connectionTimeoutSeconds: configuration.connectionTimeoutSeconds)
        server = HTTPServer(configuration: httpConfiguration, handler: application, logger: logger) { fault in
            let error = switch fault {
            case let .bodyTooLarge(limit):
                APIError(status: 413, code: "payload_too_large",
                         message: "the request body is larger than \(limit) bytes", field: "body")
            case .shuttingDown:
                APIError(status: 503, code: "shutting_down", message: "the gateway is shutting down")
            }
            return GatewayApplication.errorResponse(error, requestID: RequestID.accept(nil))
        }
    }

    /// Starts the broker, then the HTTP server. Returns the HTTP port (useful when configured with 0).
    @discardableResult
    public func start() throws -> Int {
        let endpoint = try broker.start()
        try server.start()
        logger.info("gateway listening", ["http": "http://\(configuration.httpHost):\(server.port)",
                                          "broker": endpoint, "version": KYCSuiteVersion.current])
        return server.port
    }

    /// The broker's bound worker endpoint (resolved when configured with a wildcard port).
    public var brokerEndpoint: String? { broker.endpoint }

    public var httpPort: Int { server.port }

    /// Stops intake (HTTP), then the broker (pending requests are answered `unavailable`), then ZeroMQ.
    public func stop() {
        server.stop()
        broker.stop()
        context.terminate()
        logger.info("gateway stopped")
    }
}
