// kyc-bench: the benchmarks behind `make bench`. Each subcommand measures one thing; scripts/run-bench runs them
// with their same-run baselines and writes docs/benchmarks.md.
import Foundation
import KYCCore

let usage = """
    kyc-bench: KYC Suite benchmarks with same-run baselines

    Usage:
      kyc-bench messaging [--iterations N] [--warmup N] [--throughput-requests N] [--in-flight N]
                          [--worker-threads N] [--payload-bytes N]
          raw libzmq DEALER->ROUTER echo vs Broker.submit -> ServiceWorker echo; prints key=value lines and a table
      kyc-bench bare-http --port P [--threads N]
          bare libmicrohttpd JSON endpoint on 127.0.0.1:P (the HTTP baseline); runs until SIGINT/SIGTERM
      kyc-bench free-ports [--count N]
          prints N free loopback TCP ports, one per line
    \(CaptureCommand.usage)
    \(CaptureStreamCommand.usage)

    """

/// Serves the bare HTTP baseline until SIGINT or SIGTERM.
func runBareHTTP(_ arguments: ArraySlice<String>) throws {
    var options = try CommandOptions(arguments)
    let port = try options.requiredInt("--port", range: 1...65_535)
    let threads = try options.int("--threads", default: 2, range: 1...64)
    try options.requireAllUsed()
    let shutdown = ShutdownSignal()
    shutdown.install()
    let server = try BareHTTPServer(port: port, threads: threads)
    print("bare-http listening on http://127.0.0.1:\(port) threads=\(threads)")
    fflush(nil)
    shutdown.wait()
    server.close()
}

func runFreePorts(_ arguments: ArraySlice<String>) throws {
    var options = try CommandOptions(arguments)
    let count = try options.int("--count", default: 1, range: 1...64)
    try options.requireAllUsed()
    for port in try FreePorts.find(count: count) { print(port) }
}

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "messaging": try MessagingCommand(arguments: arguments.dropFirst()).run()
    case "bare-http": try runBareHTTP(arguments.dropFirst())
    case "free-ports": try runFreePorts(arguments.dropFirst())
    case "capture": try CaptureCommand(arguments: arguments.dropFirst()).run()
    case "capture-stream": try CaptureStreamCommand(arguments: arguments.dropFirst()).run()
    case nil, "help", "--help", "-h": print(usage, terminator: "")
    default: throw BenchError(.usage, function: "arguments", message: "unknown command '\(arguments.first!)'")
    }
    fflush(nil)
    exit(0)
} catch let error as BenchError {
    FileHandle.standardError.write(Data("kyc-bench: \(error)\n".utf8))
    if error.code == .usage { FileHandle.standardError.write(Data("\n\(usage)".utf8)) }
    exit(error.code == .usage ? 2 : 1)
} catch {
    FileHandle.standardError.write(Data("kyc-bench: \(error)\n".utf8))
    exit(1)
}
