import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Appointment helpers for end-to-end tests: calendars that are open every day, dates a few days ahead in the
/// calendar's zone, booking bodies, and many HTTP requests at once.
extension StackHarness {
    /// A URL session that really opens one connection per concurrent request (the shared one caps them per host).
    static let concurrentSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    /// Opens `callType`'s calendar every day, all day, in Istanbul, with `capacity` places per 15-minute slot.
    func openCalendarEveryDay(adminKey: String, callType: String = "onboarding", capacity: Int,
                              cancellationCutoffMinutes: Int = 30, force: Bool = false) async throws -> Response {
        let days = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]
            .map { #"{"weekday":"\#($0)","opens":"00:00","closes":"24:00"}"# }.joined(separator: ",")
        return try await request("PUT", "/v1/admin/call-types/\(callType)/calendar\(force ? "?force=true" : "")",
                                 token: adminKey, body: """
            {"timeZone":"Europe/Istanbul","workingHours":[\(days)],"slotMinutes":15,"capacity":\(capacity),
             "closedDates":[],"horizonDays":30,"minimumNoticeMinutes":60,
             "cancellationCutoffMinutes":\(cancellationCutoffMinutes)}
            """)
    }

    /// The Istanbul date `days` from now, `YYYY-MM-DD`.
    static func istanbulDate(daysAhead days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Istanbul")!
        let date = calendar.date(byAdding: .day, value: days, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static func bookingBody(uid: String, identityType: String = "Pasaport", identityNo: String, date: String,
                            time: String = "10:00", callType: String = "onboarding", phone: String = "0532 123 45 67",
                            extra: String = "") -> String {
        """
        {"callType":"\(callType)","date":"\(date)","startTime":"\(time)","identityType":"\(identityType)",
         "identityNo":"\(identityNo)","name":"Ayşe","surname":"Yılmaz","phone":"\(phone)",
         "email":"ayse@example.com","uId":"\(uid)"\(extra)}
        """
    }

    /// Sends `bodies` as concurrent POSTs to `path` and returns each response's status and error code.
    func postConcurrently(_ path: String, token: String, bodies: [String]) async throws
        -> [(status: Int, code: String?)] {
        let base = baseURL
        return try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for body in bodies {
                group.addTask {
                    var request = URLRequest(url: URL(string: path, relativeTo: base)!)
                    request.httpMethod = "POST"
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.httpBody = Data(body.utf8)
                    let (data, response) = try await Self.concurrentSession.data(for: request)
                    let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                    return ((response as! HTTPURLResponse).statusCode,
                            (json?["error"] as? [String: Any])?["code"] as? String)
                }
            }
            var results: [(status: Int, code: String?)] = []
            for try await result in group { results.append(result) }
            return results
        }
    }

    /// Opens a mobile session for a T.C. identity and returns its token.
    func openMobileSession(apiKey: String, identityNo: String, priority: Bool = false) async throws -> String {
        let opened = try await request("POST", "/v1/sessions", token: apiKey, body: """
            {"identity":{"identityType":"TCKN","identityNo":"\(identityNo)","name":"Ayşe","surname":"Yılmaz",
             "isPriorityCustomer":\(priority)},"scopes":["appointments"]}
            """)
        guard opened.status == 201, let token = opened.json["token"] as? String else {
            throw HarnessError("could not open a session: \(opened.status) \(opened.text)")
        }
        return token
    }

    /// Sends SIGTERM to a child by its pid and polls until it has exited (Foundation's own terminate and wait can
    /// miss a child on Linux when several are started and stopped).
    func stopProcess(_ process: Process, seconds: Double = 20) async throws {
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        try await waitUntil(seconds: seconds, "process \(pid) to exit") { !Self.isAlive(pid) }
    }

    /// `stopProcess` for a `defer`: SIGTERM, then SIGKILL if it is still running after `seconds`.
    func stopProcessBlocking(_ process: Process, seconds: Double = 20) throws {
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while Self.isAlive(pid) && Date() < deadline { usleep(20_000) }
        if Self.isAlive(pid) {
            kill(pid, SIGKILL)
            throw HarnessError("process \(pid) ignored SIGTERM")
        }
    }

    /// Waits until the broker lists no live worker of `service` (a zero count, or no line at all).
    func waitForNoWorkers(_ service: String) async throws {
        try await waitUntil("no live \(service) workers") {
            guard let metrics = try? await request("GET", "/metrics"), metrics.status == 200 else { return false }
            let prefix = "kyc_broker_live_workers{service=\"\(service)\"} "
            guard let line = metrics.text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
                return true
            }
            return line == prefix + "0"
        }
    }
}
