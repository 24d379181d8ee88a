import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// Starts the real executables (Gateway, service workers, kycctl) from the build directory on loopback ports chosen
/// at run time, with a temporary data directory, and talks HTTP to the gateway as a client would.
final class StackHarness: @unchecked Sendable {
    // @unchecked: `processes` is only touched from the test's own task (start/stop/kill), never concurrently.
    /// Holds `dataDirectory`; removed in deinit, after every process writing into it has exited.
    private let temporaryDirectory: TemporaryDirectory
    let dataDirectory: String
    /// Every started process's standard output and error, one file each (see `start`); removed with the harness.
    private let logDirectory: TemporaryDirectory
    let httpPort: Int
    let brokerEndpoint: String
    let brokerClientEndpoint: String
    var processes: [String: [Process]] = [:]
    let baseURL: URL

    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorField: String? { (json["error"] as? [String: Any])?["field"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    init() throws {
        temporaryDirectory = try TemporaryDirectory("kyc-e2e")
        dataDirectory = temporaryDirectory.path
        logDirectory = try TemporaryDirectory("kyc-e2e-logs")
        httpPort = try Self.freePort()
        brokerEndpoint = "tcp://127.0.0.1:\(try Self.freePort())"
        brokerClientEndpoint = "tcp://127.0.0.1:\(try Self.freePort())"
        baseURL = URL(string: "http://127.0.0.1:\(httpPort)")!
    }

    deinit {
        // A test calls stopAll() itself (then this is a no-op); otherwise the processes get the same orderly stop,
        // so that kycctl stops its own children too. Only then the directory goes: a process still running can write
        // a file into it while it is being removed (the removal then fails, "directory not empty"), or open a new
        // database there afterwards (Database creates missing parent directories), and either is left behind.
        stopAll()
        temporaryDirectory.remove()
        logDirectory.remove()
    }

    /// The directory holding the package's executables (beside the test bundle).
    static let buildDirectory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // The test binary lives inside KYCSuitePackageTests.xctest on some platforms; walk up to the build directory.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Gateway").path),
              directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The next port `freePort` tries. Ports are handed out once per test process, from a block chosen by the process
    /// id, below the kernel's ephemeral range (32768 and up): asking the kernel for a free port (bind to port 0, read
    /// it, close) let two harnesses, or an outgoing connection, take the same port between the check and the child's
    /// own bind, and one test's requests could reach another test's stack.
    private static let nextPort = Mutex(20_000 + Int(getpid() % 100) * 120)

    /// A loopback TCP port no other harness of this process has been given, free when checked.
    static func freePort() throws -> Int {
        while true {
            let port = nextPort.withLock { next in
                defer { next = next + 1 < 32_768 ? next + 1 : 20_000 }
                return next
            }
            if canBind(port) { return port }
        }
    }

    private static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["KYC_DATA_DIR"] = dataDirectory
        env["KYC_HTTP_HOST"] = "127.0.0.1"
        env["KYC_HTTP_PORT"] = String(httpPort)
        env["KYC_BROKER_ENDPOINT"] = brokerEndpoint
        env["KYC_BROKER_CLIENT_ENDPOINT"] = brokerClientEndpoint
        env["KYC_WORKER_THREADS"] = "1"  // one broker worker per process, so counts below are processes
        env["LOG_LEVEL"] = env["E2E_LOG_LEVEL"] ?? "warning"
        return env
    }

    /// Starts `executable` from the build directory with the harness's environment. Its standard output and error go
    /// to a log file of its own (`logFile(of:)`), never to the test process's: `swift test` waits until every holder
    /// of the test process's output pipe has closed it, so a process that outlived a crashed test process (and its
    /// children, which `kycctl up` starts) kept the whole run waiting (2026-12-03: about 28 minutes).
    @discardableResult
    func start(_ executable: String, arguments: [String] = [], extraEnvironment: [String: String] = [:]) throws
        -> Process {
        let process = Process()
        process.executableURL = Self.buildDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { _, new in new }
        let path = logFile(of: executable, index: processes[executable, default: []].count)
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let log = FileHandle(forWritingAtPath: path) else {
            throw HarnessError("cannot create the log file \(path)")
        }
        defer { try? log.close() }  // the child has its own copy of the descriptor
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        processes[executable, default: []].append(process)
        return process
    }

    /// Where the `index`-th process started from `executable` writes its standard output and error.
    func logFile(of executable: String, index: Int) -> String { logDirectory.file("\(executable)-\(index).log") }

    /// The last `lines` lines the `index`-th process started from `executable` wrote.
    func logTail(of executable: String, index: Int, lines: Int = 5) -> String {
        guard let text = try? String(contentsOfFile: logFile(of: executable, index: index), encoding: .utf8) else {
            return ""
        }
        return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(lines).joined(separator: " | ")
    }

    /// Runs a command-line tool to completion and returns its standard output.
    func runTool(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.buildDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func createAPIKey(tenant: String, admin: Bool = false) throws -> String {
        let result = try runTool("kycctl", ["apikey", "create", "--tenant", tenant] + (admin ? ["--admin"] : []))
        guard result.status == 0 else { throw HarnessError("kycctl apikey create failed") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func request(_ method: String, _ path: String, token: String? = nil, body: String? = nil,
                 headers: [String: String] = [:]) async throws -> Response {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headerMap: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headerMap[String(describing: key).lowercased()] = String(describing: value) }
        return Response(status: http.statusCode, headers: headerMap, body: data)
    }

    /// Polls `condition` until it holds or `seconds` pass.
    /// It gives up only once it has also looked at least `minimumPolls` times (within 3 × `seconds`): on 2 cores
    /// the accuracy suites can hold this process's cooperative threads past the deadline, and every end-to-end
    /// wait then woke after it with the stack long ready, and failed without looking again (2026-12-02: six suites
    /// at 132 s at once, every process running, load average 10).
    func waitUntil(seconds: Double = 60, _ what: String, _ condition: () async -> Bool) async throws {
        let start = Date()
        let deadline = start.addingTimeInterval(seconds), lastChance = start.addingTimeInterval(3 * seconds)
        let minimumPolls = 40
        var polls = 0
        while Date() < deadline || (polls < minimumPolls && Date() < lastChance) {
            polls += 1
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("timed out waiting for \(what) after \(Int(-start.timeIntervalSinceNow)) s and \(polls) "
            + "looks; \(stateOfTheStack())")
    }

    /// What a wait that timed out saw: each started executable's processes, running or with their exit status and the
    /// last lines it logged, and the machine's load average (a starved stack and a dead process look alike from the
    /// outside).
    func stateOfTheStack() -> String {
        let processes = self.processes.sorted { $0.key < $1.key }.map { name, started in
            let states = started.enumerated().map { index, process in
                let state = process.isRunning ? "running" : "exited \(process.terminationStatus)"
                let tail = logTail(of: name, index: index)
                return tail.isEmpty ? state : "\(state) (last logged: \(tail))"
            }
            return "\(name): \(states.joined(separator: ", "))"
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
        return "processes: \(processes.joined(separator: "; ")); load average \(load)"
    }

    /// Starts the gateway (requiring only the appointment service for readiness) and `appointmentWorkers`
    /// AppointmentService processes, and waits until every worker is registered with the broker.
    func startGateway(appointmentWorkers: Int, extraEnvironment: [String: String] = [:]) async throws {
        try start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "appointment"]
            .merging(extraEnvironment) { _, new in new })
        for _ in 0..<appointmentWorkers { try start("AppointmentService") }
        if appointmentWorkers > 0 { try await waitForWorkers("appointment", count: appointmentWorkers) }
    }

    /// Waits until the gateway answers and `service` has `count` live workers (read from /metrics). Two minutes: on a
    /// 2-core machine running the accuracy suites beside them, processes starting here were once not registered
    /// within one (session 7, a CaptureService pair); a healthy stack registers in well under a second.
    func waitForWorkers(_ service: String, count: Int) async throws {
        // (What the last reads saw goes into the timeout's message: whether the gateway answered at all, and the
        // service's count when its line was there.)
        var gatewayAnswered = false, lastCount: String?
        do {
            try await waitUntil(seconds: 120, "\(count) live \(service) workers") {
                guard let metrics = try? await request("GET", "/metrics") else { return false }
                gatewayAnswered = true
                let prefix = "kyc_broker_live_workers{service=\"\(service)\"} "
                if let line = metrics.text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                    lastCount = String(line.dropFirst(prefix.count))
                }
                return metrics.text.contains(prefix + "\(count)\n")
            }
        } catch let error as HarnessError {
            let seen = !gatewayAnswered ? "the gateway never answered /metrics"
                : lastCount.map { "live \(service) workers last read: \($0)" } ?? "/metrics had no \(service) line"
            throw HarnessError("\(error.description); \(seen)")
        }
    }

    /// Processes whose parent is `pid`, with their executable names (from /proc).
    static func children(of pid: Int32) -> [(pid: Int32, name: String)] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> (Int32, String)? in
            guard let child = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // Fields after the command: state, ppid, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == pid,
                  let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")) else { return nil }
            let argv0 = cmdline.split(separator: 0).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return (child, URL(fileURLWithPath: argv0).lastPathComponent)
        }
    }

    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        // A zombie still answers kill(0); it is not running.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// SIGTERM to every process still running, SIGKILL to any still alive after 10 s, then reap them all.
    /// Signals go by pid: Foundation's `terminate()` was seen not to signal a process in some runs.
    func stopAll() {
        let all = processes.values.flatMap { $0 }
        for process in all where process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while all.contains(where: { $0.isRunning }) && Date() < deadline { usleep(10_000) }
        for process in all where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in all { process.waitUntilExit() }
        processes = [:]
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
