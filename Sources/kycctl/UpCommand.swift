// `kycctl up`: the whole stack as supervised child processes.
import Foundation
import KYCCore
import StackSupervisor

func up() throws {
    var env = EnvironmentReader()
    let logger = Logger(service: "kycctl", level: env.logLevel())
    let appointmentInstances = env.int("KYC_APPOINTMENT_INSTANCES", default: 1, range: 1...32)
    let captureInstances = env.int("KYC_CAPTURE_INSTANCES", default: 1, range: 1...64)
    try env.validate()
    let host = env.string("KYC_HTTP_HOST", default: "127.0.0.1")
    let port = env.string("KYC_HTTP_PORT", default: "8080")

    var children: [ChildSpec] = []
    for (name, instances) in [("Gateway", 1), ("AppointmentService", appointmentInstances), ("KYBService", 1),
                              ("SigningService", 1), ("CaptureService", captureInstances),
                              ("WebhookService", 1)] {
        guard let path = StackSupervisor.locateSiblingExecutable(name) else {
            throw CommandLineError(description: "cannot find the \(name) executable next to kycctl; build first")
        }
        children.append(ChildSpec(name: name, executablePath: path, instances: instances))
    }
    let supervisor = StackSupervisor(children: children, logger: logger)
    let shutdown = ShutdownSignal()
    shutdown.install()
    try supervisor.start()
    print("""
        KYC Suite is starting at http://\(host):\(port)  (data in \(dataDirectory()); Ctrl-C stops everything)
          health:  curl http://\(host):\(port)/readyz
          API key: kycctl apikey create --tenant acme
        """)
    fflush(nil)
    supervisor.run(until: shutdown)
}

