// kycctl: the operator's command line. `up` runs the whole stack locally; `apikey` manages customer-backend keys.
import Credentials
import Foundation
import KYCCore
import StackSupervisor

let usage = """
    kycctl: operate a KYC Suite installation

    Usage:
      kycctl up                                   start the gateway and every service; Ctrl-C stops them
      kycctl apikey create --tenant ID [--admin] [--label TEXT]
                                                  create an API key and print it once (only a hash is stored)
      kycctl apikey list [--tenant ID]            list keys (never their secrets)
      kycctl apikey revoke KEY_ID                 revoke a key at once

    Environment:
      KYC_DATA_DIR      directory of each service's SQLite database (default ./data)
      KYC_HTTP_HOST, KYC_HTTP_PORT, KYC_BROKER_ENDPOINT, LOG_LEVEL and the other keys each service's --help lists
                        are passed through to the processes `up` starts.
      KYC_APPOINTMENT_INSTANCES   AppointmentService processes `up` starts (default 1)
      KYC_CAPTURE_INSTANCES       CaptureService processes `up` starts (default 1)

    """

struct CommandLineError: Error, CustomStringConvertible {
    let description: String
}

/// Parses `--flag value` and `--switch` options after the command words.
struct Options {
    var values: [String: String] = [:]
    var switches: Set<String> = []
    var positional: [String] = []

    init(_ arguments: ArraySlice<String>, switches known: Set<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                if known.contains(name) {
                    switches.insert(name)
                } else {
                    guard let value = iterator.next() else { throw CommandLineError(description: "\(argument) needs a value") }
                    values[name] = value
                }
            } else {
                positional.append(argument)
            }
        }
    }
}

func dataDirectory() -> String {
    var env = EnvironmentReader()
    return env.string("KYC_DATA_DIR", default: "./data")
}

func apikey(_ arguments: ArraySlice<String>) throws {
    guard let verb = arguments.first else { throw CommandLineError(description: "apikey needs create, list or revoke") }
    let options = try Options(arguments.dropFirst(), switches: ["admin"])
    let store = try CredentialStore(dataDirectory: dataDirectory())
    switch verb {
    case "create":
        guard let tenant = options.values["tenant"] else { throw CommandLineError(description: "--tenant is required") }
        let (record, secret) = try store.createAPIKey(tenant: tenant, admin: options.switches.contains("admin"),
                                                     label: options.values["label"] ?? "")
        print(secret)
        FileHandle.standardError.write(Data("""
            created \(record.keyID) for tenant \(record.tenant) with scopes \(record.scopes.joined(separator: ","))
            the key above is shown only now: store it safely

            """.utf8))
    case "list":
        for key in try store.listAPIKeys(tenant: options.values["tenant"]) {
            let state = key.revokedAt == nil ? "active" : "revoked"
            print("\(key.keyID)\t\(key.tenant)\t\(key.scopes.joined(separator: ","))\t\(state)\t\(key.label)")
        }
    case "revoke":
        guard let keyID = options.positional.first else { throw CommandLineError(description: "revoke needs KEY_ID") }
        guard try store.revokeAPIKey(keyID: keyID) else {
            throw CommandLineError(description: "no active key \(keyID)")
        }
        print("revoked \(keyID)")
    default:
        throw CommandLineError(description: "unknown apikey command '\(verb)'")
    }
}

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
                              ("SigningService", 1), ("CaptureService", captureInstances)] {
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

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "up": try up()
    case "apikey": try apikey(arguments.dropFirst())
    case nil, "help", "--help", "-h": print(usage, terminator: "")
    default: throw CommandLineError(description: "unknown command '\(arguments.first!)'")
    }
} catch let error as CommandLineError {
    FileHandle.standardError.write(Data("kycctl: \(error.description)\n\n\(usage)".utf8))
    exit(2)
} catch let error as CredentialError {
    FileHandle.standardError.write(Data("kycctl: \(error.message)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("kycctl: \(error)\n".utf8))
    exit(1)
}
