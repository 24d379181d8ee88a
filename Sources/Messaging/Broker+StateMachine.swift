import KYCMessages

extension Broker {
    /// The broker's decisions as a pure value: no sockets, no clock. Each method takes one event plus the current
    /// time (Unix milliseconds, the unit of request deadlines) and returns what the runtime must do, in order.
    ///
    /// Rules: per service, workers with a free place are used least recently used first (the worker given a request
    /// longest ago goes next, so load spreads evenly); a worker holds at most the `capacity` it announced in READY (1
    /// when it announced none); requests queue while every worker is full; a worker silent for `liveness × heartbeat
    /// interval` expires, and the requests it held are retried on another worker while its deadline has not passed; submitting to a service with
    /// no worker fails at once with `.unavailable`, and so do the queued requests of a service whose last worker
    /// left; a request past its deadline fails with `.deadlineExceeded`; a reply to a finished ticket is ignored.
    public struct StateMachine: Sendable {
        public typealias Ticket = WorkerProtocol.Ticket
        /// A worker's ROUTER routing id.
        public typealias WorkerID = [UInt8]

        /// How a ticket ended.
        public enum Outcome: Sendable, Equatable {
            /// The worker's ReplyEnvelope bytes.
            case reply([UInt8])
            /// The broker's own verdict (`.unavailable`, `.deadlineExceeded`).
            case failed(StatusCode)
        }

        /// What the runtime must do.
        public enum Action: Sendable, Equatable {
            case sendRequest(worker: WorkerID, ticket: Ticket, envelope: [UInt8])
            case complete(ticket: Ticket, Outcome)
            case sendHeartbeat(worker: WorkerID)
            case sendDisconnect(worker: WorkerID)
        }

        struct Request: Sendable {
            let ticket: Ticket
            let service: String
            let envelope: [UInt8]
            let deadline: Int64
            /// The worker holding it, `nil` while queued.
            var worker: WorkerID?
        }

        struct Worker: Sendable {
            let service: String
            let instance: String
            var expiresAt: Int64
            var nextHeartbeatAt: Int64
            /// How many requests it may hold at once.
            let capacity: Int
            /// The tickets it holds, in the order they were sent.
            var held: [Ticket] = []
            var hasRoom: Bool { held.count < capacity }
        }

        struct Service: Sendable {
            /// Workers with a free place, least recently used first. A worker is here exactly when it has room.
            var available = FIFOQueue<WorkerID>()
            var requests = FIFOQueue<Ticket>()
            var workerCount = 0
        }

        public let heartbeatIntervalMilliseconds: Int64
        public let liveness: Int64
        private var workers: [WorkerID: Worker] = [:]
        private var services: [String: Service] = [:]
        private var requests: [Ticket: Request] = [:]

        public init(heartbeatIntervalMilliseconds: Int64 = MessagingTimings.heartbeatIntervalMilliseconds,
                    liveness: Int64 = MessagingTimings.liveness) {
            self.heartbeatIntervalMilliseconds = heartbeatIntervalMilliseconds
            self.liveness = liveness
        }

        // MARK: Events from workers

        /// READY: `worker` serves `service`, holding up to `capacity` requests at once (clamped to
        /// 1…`WorkerProtocol.maxCapacity`). A worker already known is re-registered (requests it held are retried).
        public mutating func workerReady(_ worker: WorkerID, service: String, instance: String, capacity: Int = 1,
                                         now: Int64) -> [Action]
        {
            var actions: [Action] = []
            if let known = workers[worker] {
                removeWorker(worker, now: now, actions: &actions, reRegistering: known.service == service)
            }
            workers[worker] = Worker(service: service, instance: instance, expiresAt: expiry(now),
                                     nextHeartbeatAt: now + heartbeatIntervalMilliseconds,
                                     capacity: min(max(capacity, 1), WorkerProtocol.maxCapacity))
            services[service, default: Service()].workerCount += 1
            services[service]!.available.append(worker)
            dispatch(service, now: now, actions: &actions)
            return actions
        }

        /// HEARTBEAT (or any message) from `worker`: refreshes it; an unknown worker is told to DISCONNECT.
        public mutating func workerHeartbeat(_ worker: WorkerID, now: Int64) -> [Action] {
            guard workers[worker] != nil else { return [.sendDisconnect(worker: worker)] }
            workers[worker]!.expiresAt = expiry(now)
            return []
        }

        /// REPLY from `worker` for `ticket`. Completes the ticket if this worker holds it, which frees one place.
        public mutating func workerReply(_ worker: WorkerID, ticket: Ticket, reply: [UInt8], now: Int64) -> [Action] {
            guard var record = workers[worker] else { return [.sendDisconnect(worker: worker)] }
            record.expiresAt = expiry(now)
            var actions: [Action] = []
            guard let index = record.held.firstIndex(of: ticket) else {
                // A late or unexpected reply: the ticket finished (or moved) already. The worker stays as it was.
                workers[worker] = record
                return actions
            }
            let wasFull = !record.hasRoom
            record.held.remove(at: index)
            workers[worker] = record
            // The ticket may have failed its deadline while the worker held it: then only the place is freed.
            if requests.removeValue(forKey: ticket) != nil {
                actions.append(.complete(ticket: ticket, .reply(reply)))
            }
            if wasFull { services[record.service]!.available.append(worker) }
            dispatch(record.service, now: now, actions: &actions)
            return actions
        }

        /// DISCONNECT from `worker` (or the runtime found it unreachable): forget it, retry its request.
        public mutating func workerDisconnected(_ worker: WorkerID, now: Int64) -> [Action] {
            var actions: [Action] = []
            removeWorker(worker, now: now, actions: &actions)
            return actions
        }

        // MARK: Events from clients and the clock

        /// A client request for `service`, to finish by `deadline` (Unix ms).
        public mutating func submit(ticket: Ticket, service: String, envelope: [UInt8], deadline: Int64, now: Int64)
            -> [Action]
        {
            guard let record = services[service], record.workerCount > 0 else {
                return [.complete(ticket: ticket, .failed(.unavailable))]
            }
            guard deadline > now else { return [.complete(ticket: ticket, .failed(.deadlineExceeded))] }
            requests[ticket] = Request(ticket: ticket, service: service, envelope: envelope, deadline: deadline)
            services[service]!.requests.append(ticket)
            var actions: [Action] = []
            dispatch(service, now: now, actions: &actions)
            return actions
        }

        /// Time passes: expire silent workers, fail requests past their deadline, heartbeat idle workers.
        public mutating func tick(now: Int64) -> [Action] {
            var actions: [Action] = []
            let expired = workers.filter { $0.value.expiresAt <= now }.map(\.key)
            for worker in expired {
                removeWorker(worker, now: now, actions: &actions)
                actions.append(.sendDisconnect(worker: worker))  // if it still lives, it re-registers
            }
            let overdue = requests.values.filter { $0.deadline <= now }
            for request in overdue.sorted(by: { $0.ticket < $1.ticket }) {
                requests[request.ticket] = nil
                // A worker holding it stays busy until it answers (its reply then frees it and completes nothing).
                if request.worker == nil {
                    services[request.service]?.requests.removeAll { $0 == request.ticket }
                }
                actions.append(.complete(ticket: request.ticket, .failed(.deadlineExceeded)))
            }
            for (worker, record) in workers where record.nextHeartbeatAt <= now {
                workers[worker]!.nextHeartbeatAt = now + heartbeatIntervalMilliseconds
                actions.append(.sendHeartbeat(worker: worker))
            }
            return actions
        }

        /// Tells every worker to DISCONNECT and fails every request with `.unavailable`; the machine is empty after.
        public mutating func shutdown() -> [Action] {
            var actions: [Action] = requests.keys.sorted().map { .complete(ticket: $0, .failed(.unavailable)) }
            actions += workers.keys.map { .sendDisconnect(worker: $0) }
            workers = [:]
            services = [:]
            requests = [:]
            return actions
        }

        /// A snapshot of workers, queues and in-flight requests.
        public var stats: BrokerStats {
            var stats = BrokerStats()
            for (name, service) in services where service.workerCount > 0 || !service.requests.isEmpty {
                stats.workersByService[name] = service.workerCount
                stats.queuedByService[name] = service.requests.count
            }
            // Counted over workers' held tickets: a held ticket is in flight while it is still pending (a ticket
            // failed by its deadline no longer is, though its worker's place stays taken until it answers).
            stats.inFlight = workers.values.reduce(0) { count, worker in
                count + worker.held.count { requests[$0] != nil }
            }
            return stats
        }

        /// Whether `ticket` is queued or in flight.
        public func isPending(_ ticket: Ticket) -> Bool { requests[ticket] != nil }

        // MARK: Rules

        private func expiry(_ now: Int64) -> Int64 { now + heartbeatIntervalMilliseconds * liveness }

        /// Hands queued requests of `service` to workers with room, LRU first; a worker that still has room after
        /// taking one goes to the back of the line.
        private mutating func dispatch(_ service: String, now: Int64, actions: inout [Action]) {
            guard var record = services[service] else { return }
            defer { services[service] = record }
            while !record.requests.isEmpty, !record.available.isEmpty {
                let ticket = record.requests.popFirst()!
                guard var request = requests[ticket] else { continue }
                if request.deadline <= now {
                    requests[ticket] = nil
                    actions.append(.complete(ticket: ticket, .failed(.deadlineExceeded)))
                    continue
                }
                let worker = record.available.popFirst()!
                request.worker = worker
                requests[ticket] = request
                workers[worker]!.held.append(ticket)
                if workers[worker]!.hasRoom { record.available.append(worker) }
                actions.append(.sendRequest(worker: worker, ticket: ticket, envelope: request.envelope))
            }
        }

        /// Forgets `worker`; retries its requests elsewhere (in front of the queue, in their original order), or fails
        /// the service's queue if it was the last worker.
        /// With `reRegistering`, the worker comes straight back, so its service is not treated as left without workers.
        private mutating func removeWorker(_ worker: WorkerID, now: Int64, actions: inout [Action],
                                           reRegistering: Bool = false) {
            guard let record = workers.removeValue(forKey: worker) else { return }
            var service = services[record.service]!
            service.workerCount -= 1
            service.available.removeAll { $0 == worker }
            for ticket in record.held.reversed() {
                guard var request = requests[ticket], request.worker == worker else { continue }
                request.worker = nil
                requests[ticket] = request
                service.requests.prepend(ticket)
            }
            if service.workerCount == 0 && !reRegistering {
                while let ticket = service.requests.popFirst() {
                    guard requests.removeValue(forKey: ticket) != nil else { continue }
                    actions.append(.complete(ticket: ticket, .failed(.unavailable)))
                }
                services[record.service] = nil
                return
            }
            services[record.service] = service
            if !reRegistering { dispatch(record.service, now: now, actions: &actions) }
        }
    }
}
