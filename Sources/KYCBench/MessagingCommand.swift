import KYCCore

/// `kyc-bench messaging`: the raw libzmq echo and the broker → worker echo measured back to back in one process,
/// printed as `key=value` lines (for scripts) followed by a table with the ours/raw ratios.
struct MessagingCommand {
    /// Timed round trips per latency run (one request in flight).
    var iterations = 20_000
    /// Untimed round trips before each latency run (connections, caches, allocator warmed up).
    var warmup = 2_000
    /// Requests per throughput run.
    var throughputRequests = 100_000
    /// Requests kept outstanding in the throughput runs.
    var inFlight = 64
    /// Worker threads of the broker throughput run.
    var throughputWorkerThreads = 2
    var payloadBytes = 100
    /// Round trips per alternating latency round.
    static let roundSize = 1_000

    init(arguments: ArraySlice<String>) throws {
        var options = try CommandOptions(arguments)
        iterations = try options.int("--iterations", default: iterations, range: 100...10_000_000)
        warmup = try options.int("--warmup", default: warmup, range: 0...10_000_000)
        throughputRequests = try options.int("--throughput-requests", default: throughputRequests,
                                             range: 100...100_000_000)
        inFlight = try options.int("--in-flight", default: inFlight, range: 1...10_000)
        throughputWorkerThreads = try options.int("--worker-threads", default: throughputWorkerThreads, range: 1...64)
        payloadBytes = try options.int("--payload-bytes", default: payloadBytes, range: 1...1_000_000)
        try options.requireAllUsed()
    }

    func run() throws {
        let logger = Logger(service: "bench", level: .warning)

        // Both setups stay up and are measured in alternating rounds, so a drift of the machine's speed during
        // the run (other tenants of a VM, frequency changes) affects baseline and ours alike.
        let raw = try RawEchoBenchmark()
        let single = try BrokerEchoBenchmark(workerThreads: 1, logger: logger)
        try raw.warmUp(iterations: warmup, payloadBytes: payloadBytes)
        try single.warmUp(iterations: warmup, payloadBytes: payloadBytes)
        var rawSamples: [UInt64] = []
        var oursSamples: [UInt64] = []
        rawSamples.reserveCapacity(iterations)
        oursSamples.reserveCapacity(iterations)
        var remaining = iterations
        while remaining > 0 {
            let round = min(remaining, Self.roundSize)
            try raw.measureLatency(iterations: round, payloadBytes: payloadBytes, into: &rawSamples)
            try single.measureLatency(iterations: round, payloadBytes: payloadBytes, into: &oursSamples)
            remaining -= round
        }
        single.stop()
        let rawLatency = LatencySummary(nanoseconds: rawSamples)
        let oursLatency = LatencySummary(nanoseconds: oursSamples)
        let rawThroughput = try raw.measureThroughput(requests: throughputRequests, inFlight: inFlight,
                                                      payloadBytes: payloadBytes)
        raw.stop()
        if let failure = raw.failure {
            throw BenchError(.invalidResult, function: "raw echo thread", message: failure)
        }

        let pooled = try BrokerEchoBenchmark(workerThreads: throughputWorkerThreads, logger: logger)
        let oursThroughput = try pooled.measureThroughput(requests: throughputRequests, inFlight: inFlight,
                                                          payloadBytes: payloadBytes)
        pooled.stop()

        let p50Ratio = oursLatency.p50Microseconds / rawLatency.p50Microseconds
        let p99Ratio = oursLatency.p99Microseconds / rawLatency.p99Microseconds
        var lines = [
            "messaging.iterations=\(iterations)",
            "messaging.warmup=\(warmup)",
            "messaging.payload_bytes=\(payloadBytes)",
        ]
        lines += rawLatency.keyValueLines(prefix: "messaging.raw")
        lines += oursLatency.keyValueLines(prefix: "messaging.ours")
        lines += [
            "messaging.ratio.p50=\(Format.fixed(p50Ratio, 2))",
            "messaging.ratio.p99=\(Format.fixed(p99Ratio, 2))",
            "messaging.throughput.in_flight=\(inFlight)",
            "messaging.throughput.requests=\(throughputRequests)",
            "messaging.throughput.ours_worker_threads=\(throughputWorkerThreads)",
            "messaging.throughput.raw_per_s=\(Format.fixed(rawThroughput, 0))",
            "messaging.throughput.ours_per_s=\(Format.fixed(oursThroughput, 0))",
        ]
        for line in lines { print(line) }

        let table = [
            "",
            "Messaging round trip, \(payloadBytes)-byte payload, one in flight, \(iterations) samples each after "
                + "\(warmup) warm-up, in alternating rounds of \(Self.roundSize)",
            "  " + Format.left("", 26) + Format.right("p50 us", 10) + Format.right("p90 us", 10)
                + Format.right("p99 us", 10) + Format.right("p99.9 us", 10),
            row("raw DEALER->ROUTER echo", rawLatency),
            row("Broker -> ServiceWorker", oursLatency),
            "  " + Format.left("ours/raw", 26) + Format.right(Format.fixed(p50Ratio, 2), 10)
                + Format.right("", 10) + Format.right(Format.fixed(p99Ratio, 2), 10) + "   (target <= 2.00)",
            "Throughput, \(inFlight) in flight: raw \(Format.fixed(rawThroughput, 0)) msg/s (1 echo thread); "
                + "ours \(Format.fixed(oursThroughput, 0)) req/s (\(throughputWorkerThreads) worker threads)",
        ]
        for line in table { print(line) }
    }

    private func row(_ name: String, _ summary: LatencySummary) -> String {
        "  " + Format.left(name, 26) + Format.right(Format.fixed(summary.p50Microseconds, 1), 10)
            + Format.right(Format.fixed(summary.p90Microseconds, 1), 10)
            + Format.right(Format.fixed(summary.p99Microseconds, 1), 10)
            + Format.right(Format.fixed(summary.p999Microseconds, 1), 10)
    }
}
