import KYCMessages
import Messaging

extension Broker: ServiceDispatcher {
    public func dispatch(service: String, envelope: RequestEnvelope,
                         completion: @escaping @Sendable (ReplyEnvelope) -> Void) {
        submit(service: service, envelope: envelope, completion: completion)
    }

    public func snapshot() -> BrokerSnapshot {
        let stats = stats()
        return BrokerSnapshot(liveWorkers: stats.workersByService, queueDepth: stats.queuedByService,
                              inFlight: stats.inFlight)
    }
}
