// Gateway: the HTTP API and the broker service workers connect to.
import Foundation
import GatewayKit
import KYCCore

handleHelpFlag(executable: "Gateway", summary: "KYC Suite HTTP API and message broker",
               keys: GatewayConfiguration.keys)
var configuration = GatewayConfiguration()
exitOnConfigurationError("Gateway") { configuration = try GatewayConfiguration.fromEnvironment() }
let logger = Logger(service: "gateway", level: configuration.logLevel)
let shutdown = ShutdownSignal()
shutdown.install()
do {
    let runtime = try GatewayRuntime(configuration: configuration, logger: logger)
    try runtime.start()
    shutdown.wait()
    runtime.stop()
    exit(0)
} catch {
    logger.critical("cannot run", ["error": String(describing: error)])
    exit(1)
}
