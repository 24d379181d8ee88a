import Foundation
import KYCCore
import KYCMessages
import Testing
import ZeroMQ
@testable import Messaging

/// The broker's client endpoint ("KYC/C1") and `ServiceClient`: services calling services through the broker.
@Suite struct ServiceClientTests {
    @Test func clientRequestReachesAWorkerAndTheReplyComesBack() throws {
        let context = try ZMQContext()
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let clientEndpoint = try #require(broker.clientEndpoint)
        let worker = try startWorker(echoRouter(), broker: broker.endpoint!, context: context)
        defer { worker.stop() }
        #expect(eventually { broker.stats().workersByService["Echo"] == 1 })

        let client = ServiceClient(context: context, endpoint: clientEndpoint)
        defer { client.close() }
        let reply = try client.request(service: "Echo", envelope: envelope(payload: [1, 2, 3], id: "r-1"))
        #expect(reply.status == .ok)
        #expect(reply.requestID == "r-1")
        #expect(reply.payload == [3, 2, 1])
        // The same client serves further requests, and fills in a request id when none is given.
        let second = try client.request(service: "Echo", envelope: envelope(payload: [9, 8], id: ""))
        #expect(second.payload == [8, 9])
        #expect(!second.requestID.isEmpty)
    }

    @Test func unknownServiceIsAnsweredUnavailable() throws {
        let context = try ZMQContext()
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let client = ServiceClient(context: context, endpoint: try #require(broker.clientEndpoint))
        defer { client.close() }
        let reply = try client.request(service: "Nobody", envelope: envelope(id: "r-2"))
        #expect(reply.status == .unavailable)
        #expect(reply.requestID == "r-2")
    }

    @Test func requestTimesOutWhenNoBrokerListens() throws {
        let context = try ZMQContext()
        // A port that was free a moment ago: nothing answers there.
        let probe = try context.socket(.router)
        try probe.bind("tcp://127.0.0.1:*")
        let endpoint = try probe.lastEndpoint()
        probe.close()
        let client = ServiceClient(context: context, endpoint: endpoint)
        defer { client.close() }
        #expect(throws: ServiceClientError.self) {
            try client.request(service: "Echo", envelope: envelope(id: "r-3"), timeoutMilliseconds: 200)
        }
    }

    @Test func malformedClientMessagesAreDroppedOrRefusedAndTheBrokerKeepsServing() throws {
        let context = try ZMQContext()
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let clientEndpoint = try #require(broker.clientEndpoint)
        let worker = try startWorker(echoRouter(), broker: broker.endpoint!, context: context)
        defer { worker.stop() }
        #expect(eventually { broker.stats().workersByService["Echo"] == 1 })

        var options = ZMQSocketOptions()
        options.lingerMilliseconds = 0
        let raw = try context.socket(.dealer, options: options)
        defer { raw.close() }
        try raw.connect(clientEndpoint)
        // Wrong tag, missing frames, empty service, too many frames: all dropped without an answer.
        _ = try raw.send([Array("KYC/W1".utf8), Array("Echo".utf8), envelope().serialized()])
        _ = try raw.send([ClientProtocol.tag, Array("Echo".utf8)])
        _ = try raw.send([ClientProtocol.tag, [], envelope().serialized()])
        _ = try raw.send([ClientProtocol.tag, Array("Echo".utf8), envelope().serialized(), [1]])
        _ = try raw.send([[0xFF]])
        // An envelope that does not decode: INVALID_ARGUMENT.
        _ = try raw.send([ClientProtocol.tag, Array("Echo".utf8), [0xFF, 0xFF, 0xFF, 0xFF]])
        try raw.setReceiveTimeout(milliseconds: 2_000)
        let frames = try #require(try raw.receive())
        #expect(frames.count == 3)
        #expect(frames[0] == ClientProtocol.tag)
        #expect(frames[1] == Array("Echo".utf8))
        let refusal = try ReplyEnvelope(serialized: frames[2])
        #expect(refusal.status == .invalidArgument)
        // Nothing else was answered.
        try raw.setReceiveTimeout(milliseconds: 200)
        #expect(try raw.receive() == nil)

        // The broker still serves well-formed requests.
        let client = ServiceClient(context: context, endpoint: clientEndpoint)
        defer { client.close() }
        let reply = try client.request(service: "Echo", envelope: envelope(payload: [4, 5], id: "after"))
        #expect(reply.payload == [5, 4])
    }

    @Test func lateReplyOfATimedOutRequestNeverReachesTheNextCall() throws {
        let context = try ZMQContext()
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let release = DispatchSemaphore(value: 0)
        let slow = echoRouter { _ = release.wait(timeout: .now() + 2) }
        let worker = try startWorker(slow, broker: broker.endpoint!, context: context, threads: 2)
        defer { worker.stop() }
        #expect(eventually { broker.stats().workersByService["Echo"] == 2 })
        let client = ServiceClient(context: context, endpoint: try #require(broker.clientEndpoint))
        defer { client.close() }
        #expect(throws: ServiceClientError.self) {
            try client.request(service: "Echo", envelope: envelope(payload: [1], id: "slow"), timeoutMilliseconds: 100)
        }
        release.signal()
        release.signal()
        let reply = try client.request(service: "Echo", envelope: envelope(payload: [7, 6], id: "next"))
        #expect(reply.requestID == "next")
        #expect(reply.payload == [6, 7])
    }

    @Test func clientEndpointDefaultsFollowTheWorkerEndpoint() {
        #expect(BrokerConfiguration().clientEndpoint == "tcp://127.0.0.1:5556")
        #expect(BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:7000").clientEndpoint == "tcp://127.0.0.1:7001")
        #expect(BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*").clientEndpoint == "tcp://127.0.0.1:*")
        #expect(BrokerConfiguration(workerEndpoint: "ipc:///tmp/x").clientEndpoint == nil)
        #expect(BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*", clientEndpoint: "tcp://127.0.0.1:9")
            .clientEndpoint == "tcp://127.0.0.1:9")
        let services = try? ServiceProcessConfiguration.fromEnvironment(
            EnvironmentReader(["KYC_BROKER_ENDPOINT": "tcp://10.0.0.1:6000"]))
        #expect(services?.brokerClientEndpoint == "tcp://10.0.0.1:6001")
        let explicit = try? ServiceProcessConfiguration.fromEnvironment(
            EnvironmentReader(["KYC_BROKER_CLIENT_ENDPOINT": "tcp://127.0.0.1:7777"]))
        #expect(explicit?.brokerClientEndpoint == "tcp://127.0.0.1:7777")
    }
}
