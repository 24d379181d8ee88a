import KYCCore
import Testing

@Suite("Logger")
struct LoggerTests {
    @Test func writesOneLineWithLevelServiceMessageAndSortedMetadata() {
        let sink = InMemoryLogSink()
        let logger = Logger(service: "gateway", level: .info, sink: sink, metadata: ["request.id": "req_1"])
        logger.info("request done", ["http.status": "200"])
        #expect(sink.lines.count == 1)
        let line = sink.lines[0]
        #expect(line.contains(" level=info service=gateway msg=\"request done\" http.status=200 request.id=req_1"))
    }

    @Test func dropsEventsBelowTheLevel() {
        let sink = InMemoryLogSink()
        let logger = Logger(service: "s", level: .warning, sink: sink)
        logger.info("quiet")
        logger.debug("quieter")
        logger.error("loud")
        #expect(sink.lines.count == 1)
        #expect(sink.lines[0].contains("level=error"))
    }

    @Test func quotesValuesThatWouldBreakTheLine() {
        let sink = InMemoryLogSink()
        Logger(service: "s", sink: sink).info("x", ["k": "a \"b\"\nc"])
        #expect(sink.lines[0].hasSuffix("k=\"a \\\"b\\\"\\nc\""))
        #expect(!sink.lines[0].contains("\n"))
    }
}

@Suite("EnvironmentReader")
struct EnvironmentReaderTests {
    @Test func defaultsApplyWhenKeysAreUnset() throws {
        var env = EnvironmentReader([:])
        #expect(env.int("PORT", default: 8080, range: 0...65535) == 8080)
        #expect(env.string("HOST", default: "127.0.0.1") == "127.0.0.1")
        #expect(env.logLevel() == .info)
        try env.validate()
    }

    @Test func collectsEveryProblemAtOnce() {
        var env = EnvironmentReader(["PORT": "99999", "THREADS": "many", "LOG_LEVEL": "loud"])
        _ = env.int("PORT", default: 1, range: 0...65535)
        _ = env.int("THREADS", default: 1, range: 1...64)
        _ = env.logLevel()
        #expect(throws: ConfigurationError.self) { try env.validate() }
        #expect(env.problems.count == 3)
        #expect(env.problems[0].hasPrefix("PORT=99999"))
    }
}

@Suite("UTCTimestamp")
struct UTCTimestampTests {
    // Expected values from Python's datetime.utcfromtimestamp, an independent implementation.
    @Test(arguments: [(Int64(0), "1970-01-01T00:00:00.000Z"), (1_795_000_000_123, "2026-11-18T11:06:40.123Z"),
                      (-1, "1969-12-31T23:59:59.999Z")])
    func formatsUTCWithMilliseconds(milliseconds: Int64, expected: String) {
        #expect(UTCTimestamp.iso8601(milliseconds: milliseconds) == expected)
    }
}
