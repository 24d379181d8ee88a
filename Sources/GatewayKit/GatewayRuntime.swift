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
        var brokerConfiguration = BrokerConfiguration(workerEndpoint: configuration.brokerEndpoint,
                                                      clientEndpoint: configuration.brokerClientEndpoint)
        brokerConfiguration.defaultRequestTimeoutMilliseconds = Int64(configuration.requestTimeoutMilliseconds)
        broker = try Broker(configuration: brokerConfiguration, context: context, logger: logger)
        application = GatewayApplication(configuration: configuration, credentials: credentials, dispatcher: broker,
                                         logger: logger)
        let httpConfiguration = HTTPServerConfiguration(
            host: configuration.httpHost, port: configuration.httpPort, threadPoolSize: configuration.httpThreads,
            // The server admits the largest body any route accepts; GatewayApplication applies each route's limit.
            maxBodyBytes: max(configuration.maxBodyBytes, configuration.maxUploadBytes),
            connectionLimit: configuration.connectionLimit,
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
                                          "broker": endpoint, "broker.client": broker.clientEndpoint ?? "none",
                                          "version": KYCSuiteVersion.current])
        return server.port
    }

    /// The broker's bound worker endpoint (resolved when configured with a wildcard port).
    public var brokerEndpoint: String? { broker.endpoint }

    /// The broker's bound client endpoint (services calling services), when one is configured.
    public var brokerClientEndpoint: String? { broker.clientEndpoint }

    public var httpPort: Int { server.port }

    /// Stops intake (HTTP), then the broker (pending requests are answered `unavailable`), then ZeroMQ.
    public func stop() {
        server.stop()
        broker.stop()
        context.terminate()
        logger.info("gateway stopped")
    }
}
