import KYCMessages
import Testing
@testable import Messaging

/// The broker's rules, checked on the pure state machine with a hand-driven clock.
@Suite struct BrokerStateMachineTests {
    typealias Machine = Broker.StateMachine
    let alice: [UInt8] = [0xA]
    let bob: [UInt8] = [0xB]
    let carol: [UInt8] = [0xC]
    let far: Int64 = 1_000_000

    func requestTickets(_ actions: [Machine.Action]) -> [(worker: [UInt8], ticket: UInt64)] {
        actions.compactMap {
            if case let .sendRequest(worker, ticket, _) = $0 { return (worker, ticket) }
            return nil
        }
    }

    @Test func submitWithNoWorkerCompletesUnavailableAtOnce() {
        var machine = Machine()
        let actions = machine.submit(ticket: 1, service: "KYB", envelope: [1], deadline: far, now: 0)
        #expect(actions == [.complete(ticket: 1, .failed(.unavailable))])
        #expect(!machine.isPending(1))
    }

    @Test func readyWorkerReceivesSubmittedRequestAndReplyCompletesIt() {
        var machine = Machine()
        #expect(machine.workerReady(alice, service: "KYB", instance: "a", now: 0) == [])
        let sent = machine.submit(ticket: 7, service: "KYB", envelope: [9, 9], deadline: far, now: 1)
        #expect(sent == [.sendRequest(worker: alice, ticket: 7, envelope: [9, 9])])
        #expect(machine.stats.inFlight == 1)
        let done = machine.workerReply(alice, ticket: 7, reply: [4, 2], now: 2)
        #expect(done == [.complete(ticket: 7, .reply([4, 2]))])
        #expect(machine.stats == BrokerStats(workersByService: ["KYB": 1], queuedByService: ["KYB": 0], inFlight: 0))
    }

    @Test func idleWorkersAreUsedLeastRecentlyUsedFirst() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.workerReady(bob, service: "S", instance: "", now: 0)
        _ = machine.workerReady(carol, service: "S", instance: "", now: 0)
        #expect(requestTickets(machine.submit(ticket: 1, service: "S", envelope: [], deadline: far, now: 1))
            .map(\.worker) == [alice])
        _ = machine.workerReply(alice, ticket: 1, reply: [], now: 2)  // alice is now the most recently used
        #expect(requestTickets(machine.submit(ticket: 2, service: "S", envelope: [], deadline: far, now: 3))
            .map(\.worker) == [bob])
        #expect(requestTickets(machine.submit(ticket: 3, service: "S", envelope: [], deadline: far, now: 3))
            .map(\.worker) == [carol])
        #expect(requestTickets(machine.submit(ticket: 4, service: "S", envelope: [], deadline: far, now: 3))
            .map(\.worker) == [alice])
    }

    @Test func requestsQueueWhileAllWorkersAreBusyOneInFlightEach() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [1], deadline: far, now: 0)
        #expect(machine.submit(ticket: 2, service: "S", envelope: [2], deadline: far, now: 0) == [])
        #expect(machine.submit(ticket: 3, service: "S", envelope: [3], deadline: far, now: 0) == [])
        #expect(machine.stats.queuedByService["S"] == 2)
        #expect(machine.stats.inFlight == 1)
        let next = machine.workerReply(alice, ticket: 1, reply: [], now: 1)
        #expect(next == [.complete(ticket: 1, .reply([])), .sendRequest(worker: alice, ticket: 2, envelope: [2])])
        #expect(machine.stats.queuedByService["S"] == 1)
    }

    @Test func requestsOnlyGoToWorkersOfTheirService() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "A", instance: "", now: 0)
        _ = machine.workerReady(bob, service: "B", instance: "", now: 0)
        #expect(requestTickets(machine.submit(ticket: 1, service: "B", envelope: [], deadline: far, now: 0))
            .map(\.worker) == [bob])
    }

    @Test func silentWorkerExpiresAndItsRequestIsRetriedOnAnotherWorker() {
        var machine = Machine(heartbeatIntervalMilliseconds: 100, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.workerReady(bob, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [5], deadline: far, now: 0)  // alice takes it
        _ = machine.submit(ticket: 2, service: "S", envelope: [6], deadline: far, now: 0)  // bob takes it
        _ = machine.workerReply(bob, ticket: 2, reply: [], now: 250)  // bob is alive; alice silent
        #expect(machine.tick(now: 299).contains { if case .sendRequest = $0 { true } else { false } } == false)
        let actions = machine.tick(now: 300)
        #expect(actions.contains(.sendRequest(worker: bob, ticket: 1, envelope: [5])))
        #expect(actions.contains(.sendDisconnect(worker: alice)))
        #expect(machine.stats.workersByService["S"] == 1)
        // Alice's late reply for the retried ticket is ignored; she is told to re-register.
        #expect(machine.workerReply(alice, ticket: 1, reply: [0], now: 301) == [.sendDisconnect(worker: alice)])
        #expect(machine.workerReply(bob, ticket: 1, reply: [1], now: 302) == [.complete(ticket: 1, .reply([1]))])
    }

    @Test func anyMessageRefreshesAWorker() {
        var machine = Machine(heartbeatIntervalMilliseconds: 100, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        #expect(machine.workerHeartbeat(alice, now: 250) == [])
        #expect(!machine.tick(now: 400).contains(.sendDisconnect(worker: alice)))
        #expect(machine.stats.workersByService["S"] == 1)
        #expect(machine.tick(now: 550).contains(.sendDisconnect(worker: alice)))
        #expect(machine.stats.workersByService["S"] == nil)
    }

    @Test func idleWorkersGetHeartbeatsEveryInterval() {
        var machine = Machine(heartbeatIntervalMilliseconds: 100, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        #expect(machine.tick(now: 50) == [])
        #expect(machine.tick(now: 100) == [.sendHeartbeat(worker: alice)])
        #expect(machine.tick(now: 150) == [])
        #expect(machine.tick(now: 200) == [.sendHeartbeat(worker: alice)])
    }

    @Test func lastWorkerExpiringFailsQueuedAndHeldRequestsUnavailable() {
        var machine = Machine(heartbeatIntervalMilliseconds: 100, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: far, now: 0)
        _ = machine.submit(ticket: 2, service: "S", envelope: [], deadline: far, now: 0)
        let actions = machine.tick(now: 300)
        #expect(actions.contains(.complete(ticket: 1, .failed(.unavailable))))
        #expect(actions.contains(.complete(ticket: 2, .failed(.unavailable))))
        #expect(machine.stats == BrokerStats())
        #expect(machine.submit(ticket: 3, service: "S", envelope: [], deadline: far, now: 301)
            == [.complete(ticket: 3, .failed(.unavailable))])
    }

    @Test func disconnectRetriesTheRequestOnAnotherWorker() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.workerReady(bob, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [1], deadline: far, now: 0)
        #expect(machine.workerDisconnected(alice, now: 1) == [.sendRequest(worker: bob, ticket: 1, envelope: [1])])
    }

    @Test func queuedRequestPastItsDeadlineCompletesDeadlineExceeded() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: far, now: 0)
        _ = machine.submit(ticket: 2, service: "S", envelope: [], deadline: 500, now: 0)  // queued behind 1
        #expect(machine.tick(now: 499).contains(.complete(ticket: 2, .failed(.deadlineExceeded))) == false)
        #expect(machine.tick(now: 500).contains(.complete(ticket: 2, .failed(.deadlineExceeded))))
        #expect(machine.stats.queuedByService["S"] == 0)
        // Finishing ticket 1 does not dispatch the expired ticket 2.
        #expect(machine.workerReply(alice, ticket: 1, reply: [], now: 501) == [.complete(ticket: 1, .reply([]))])
    }

    @Test func inFlightRequestPastDeadlineCompletesOnceAndTheLateReplyIsIgnored() {
        var machine = Machine(heartbeatIntervalMilliseconds: 10_000, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: 100, now: 0)
        _ = machine.submit(ticket: 2, service: "S", envelope: [2], deadline: far, now: 0)
        #expect(machine.tick(now: 100) == [.complete(ticket: 1, .failed(.deadlineExceeded))])
        // Alice answers late: nothing completes twice, and she picks up the queued ticket 2.
        #expect(machine.workerReply(alice, ticket: 1, reply: [1], now: 150)
            == [.sendRequest(worker: alice, ticket: 2, envelope: [2])])
    }

    @Test func submitPastDeadlineCompletesDeadlineExceeded() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        #expect(machine.submit(ticket: 1, service: "S", envelope: [], deadline: 10, now: 10)
            == [.complete(ticket: 1, .failed(.deadlineExceeded))])
    }

    @Test func retryDoesNotHappenPastTheDeadline() {
        var machine = Machine(heartbeatIntervalMilliseconds: 100, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.workerReady(bob, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: 200, now: 0)
        _ = machine.workerHeartbeat(bob, now: 250)
        let actions = machine.tick(now: 300)
        #expect(actions.contains(.complete(ticket: 1, .failed(.deadlineExceeded))))
        #expect(!actions.contains { if case .sendRequest = $0 { true } else { false } })
    }

    @Test func unknownWorkerIsToldToDisconnect() {
        var machine = Machine()
        #expect(machine.workerHeartbeat(alice, now: 0) == [.sendDisconnect(worker: alice)])
        #expect(machine.workerReply(alice, ticket: 1, reply: [], now: 0) == [.sendDisconnect(worker: alice)])
        #expect(machine.workerDisconnected(alice, now: 0) == [])
    }

    @Test func unexpectedReplyFromABusyWorkerChangesNothing() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: far, now: 0)
        #expect(machine.workerReply(alice, ticket: 99, reply: [], now: 1) == [])
        #expect(machine.isPending(1))
        #expect(machine.workerReply(alice, ticket: 1, reply: [3], now: 2) == [.complete(ticket: 1, .reply([3]))])
    }

    @Test func duplicateReadyReRegistersAndRetriesTheHeldRequest() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [1], deadline: far, now: 0)
        let actions = machine.workerReady(alice, service: "S", instance: "", now: 1)
        #expect(actions == [.sendRequest(worker: alice, ticket: 1, envelope: [1])])
        #expect(machine.stats.workersByService["S"] == 1)
    }

    @Test func shutdownFailsEverythingAndDisconnectsWorkers() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: far, now: 0)
        _ = machine.submit(ticket: 2, service: "S", envelope: [], deadline: far, now: 0)
        let actions = machine.shutdown()
        #expect(actions == [.complete(ticket: 1, .failed(.unavailable)), .complete(ticket: 2, .failed(.unavailable)),
                            .sendDisconnect(worker: alice)])
        #expect(machine.stats == BrokerStats())
    }

    // MARK: Workers holding several requests (capacity announced in READY)

    @Test func aWorkerHoldsUpToItsCapacityAndTheRestQueue() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", capacity: 3, now: 0)
        for ticket in UInt64(1)...3 {
            #expect(machine.submit(ticket: ticket, service: "S", envelope: [UInt8(ticket)], deadline: far, now: 0)
                == [.sendRequest(worker: alice, ticket: ticket, envelope: [UInt8(ticket)])])
        }
        #expect(machine.submit(ticket: 4, service: "S", envelope: [4], deadline: far, now: 0) == [])
        #expect(machine.stats.inFlight == 3)
        #expect(machine.stats.queuedByService["S"] == 1)
        // Replies may come in any order; each frees one place.
        #expect(machine.workerReply(alice, ticket: 2, reply: [], now: 1)
            == [.complete(ticket: 2, .reply([])), .sendRequest(worker: alice, ticket: 4, envelope: [4])])
        #expect(machine.workerReply(alice, ticket: 1, reply: [], now: 1) == [.complete(ticket: 1, .reply([]))])
        #expect(machine.stats.inFlight == 2)
    }

    @Test func requestsSpreadOverWorkersWithRoomInTurn() {
        var machine = Machine()
        _ = machine.workerReady(alice, service: "S", instance: "", capacity: 2, now: 0)
        _ = machine.workerReady(bob, service: "S", instance: "", capacity: 2, now: 0)
        var workers: [[UInt8]] = []
        for ticket in UInt64(1)...5 {
            workers += requestTickets(machine.submit(ticket: ticket, service: "S", envelope: [], deadline: far, now: 0))
                .map(\.worker)
        }
        #expect(workers == [alice, bob, alice, bob])  // the fifth waits for a free place
        #expect(requestTickets(machine.workerReply(bob, ticket: 4, reply: [], now: 1)).map(\.worker) == [bob])
    }

    @Test func capacityIsClampedToTheProtocolLimit() {
        var machine = Machine()
        // Below: a worker announcing no places still gets one.
        _ = machine.workerReady(alice, service: "S", instance: "", capacity: 0, now: 0)
        #expect(requestTickets(machine.submit(ticket: 1, service: "S", envelope: [], deadline: far, now: 0))
            .map(\.worker) == [alice])
        #expect(machine.submit(ticket: 2, service: "S", envelope: [], deadline: far, now: 0) == [])
        // Above: a worker announcing more than the protocol allows gets exactly `maxCapacity` places.
        _ = machine.workerReady(bob, service: "T", instance: "", capacity: 5000, now: 0)
        var sent = 0
        for ticket in UInt64(100)..<UInt64(100 + WorkerProtocol.maxCapacity + 1) {
            sent += requestTickets(machine.submit(ticket: ticket, service: "T", envelope: [], deadline: far, now: 0)).count
        }
        #expect(sent == WorkerProtocol.maxCapacity)
        #expect(machine.stats.queuedByService["T"] == 1)
    }

    @Test func everyRequestAnExpiredWorkerHeldIsRetriedInOrderAheadOfTheQueue() {
        var machine = Machine(heartbeatIntervalMilliseconds: 100, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", capacity: 3, now: 0)
        for ticket in UInt64(1)...4 {
            _ = machine.submit(ticket: ticket, service: "S", envelope: [UInt8(ticket)], deadline: far, now: 0)
        }
        _ = machine.workerReady(bob, service: "S", instance: "", capacity: 2, now: 250)  // ticket 4 goes to bob
        _ = machine.workerReply(bob, ticket: 4, reply: [], now: 260)
        let actions = machine.tick(now: 300)  // alice (tickets 1-3) expires
        #expect(requestTickets(actions).map(\.ticket) == [1, 2])  // bob has two places; 3 waits first in line
        #expect(machine.stats.queuedByService["S"] == 1)
        #expect(requestTickets(machine.workerReply(bob, ticket: 1, reply: [], now: 301)).map(\.ticket) == [3])
    }

    @Test func aLateReplyForATicketFailedByItsDeadlineStillFreesThePlace() {
        var machine = Machine(heartbeatIntervalMilliseconds: 10_000, liveness: 3)
        _ = machine.workerReady(alice, service: "S", instance: "", capacity: 2, now: 0)
        _ = machine.submit(ticket: 1, service: "S", envelope: [], deadline: 100, now: 0)
        _ = machine.submit(ticket: 2, service: "S", envelope: [], deadline: far, now: 0)
        _ = machine.submit(ticket: 3, service: "S", envelope: [3], deadline: far, now: 0)
        #expect(machine.tick(now: 100) == [.complete(ticket: 1, .failed(.deadlineExceeded))])
        #expect(machine.stats.inFlight == 1)
        #expect(machine.workerReply(alice, ticket: 1, reply: [], now: 150)
            == [.sendRequest(worker: alice, ticket: 3, envelope: [3])])
    }
}
