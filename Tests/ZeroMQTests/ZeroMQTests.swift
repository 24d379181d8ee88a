import Foundation
import Testing
@testable import ZeroMQ

/// Receives on `socket` until a message arrives or `timeoutMilliseconds` pass (polls; never sleeps).
func receive(_ socket: ZMQSocket, within timeoutMilliseconds: Int = 5_000) throws -> [[UInt8]]? {
    var poller = ZMQPoller()
    poller.add(socket)
    let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    while Date() < deadline {
        let remaining = max(1, Int(deadline.timeIntervalSinceNow * 1000))
        if try poller.poll(timeoutMilliseconds: remaining) > 0, let message = try socket.receive(dontWait: true) {
            return message
        }
    }
    return nil
}

@Suite struct ZeroMQSocketTests {
    let context: ZMQContext

    init() throws { context = try ZMQContext() }

    /// Router echoes one message back to its sender; returns what the dealer got back.
    func echo(router: ZMQSocket, dealer: ZMQSocket, frames: [[UInt8]]) throws -> [[UInt8]]? {
        #expect(try dealer.send(frames))
        let request = try #require(try receive(router))
        #expect(request.count == frames.count + 1)  // routing id first
        #expect(try router.send(request))
        return try receive(dealer)
    }

    @Test func routerDealerEchoOverInproc() throws {
        let router = try context.socket(.router)
        try router.bind("inproc://echo-\(UUID().uuidString)")
        let dealer = try context.socket(.dealer)
        try dealer.connect(try router.lastEndpoint())
        let reply = try echo(router: router, dealer: dealer, frames: [Array("hello".utf8)])
        #expect(reply == [Array("hello".utf8)])
    }

    @Test func routerDealerEchoOverTCPWithEphemeralPort() throws {
        let router = try context.socket(.router)
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = try router.lastEndpoint()
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(!endpoint.hasSuffix(":*") && !endpoint.hasSuffix(":0"))
        var options = ZMQSocketOptions()
        options.routingID = Array("dealer-1".utf8)
        let dealer = try context.socket(.dealer, options: options)
        try dealer.connect(endpoint)
        #expect(try dealer.send([Array("ping".utf8)]))
        let request = try #require(try receive(router))
        #expect(request == [Array("dealer-1".utf8), Array("ping".utf8)])
        #expect(try router.send([request[0], Array("pong".utf8)]))
        #expect(try receive(dealer) == [Array("pong".utf8)])
    }

    @Test func multipartFramesArriveIntactAndInOrder() throws {
        let router = try context.socket(.router)
        try router.bind("tcp://127.0.0.1:*")
        let dealer = try context.socket(.dealer)
        try dealer.connect(try router.lastEndpoint())
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let frames: [[UInt8]] = [[], [0x00, 0xFF, 0x00], Array("middle".utf8), large, [0x42]]
        let reply = try echo(router: router, dealer: dealer, frames: frames)
        #expect(reply == frames)
    }

    @Test func zeroCopyReceiveLendsTheSameBytes() throws {
        let pair = try context.socket(.pair)
        let endpoint = "inproc://pair-\(UUID().uuidString)"
        try pair.bind(endpoint)
        let peer = try context.socket(.pair)
        try peer.connect(endpoint)
        #expect(try peer.send([[1, 2, 3], Array(repeating: 7, count: 100)]))
        var poller = ZMQPoller()
        poller.add(pair)
        #expect(try poller.poll(timeoutMilliseconds: 5_000) == 1)
        let sizes = try pair.withReceivedMessage { frames in frames.map(\.count) + [Int(frames[0][2])] }
        #expect(sizes == [3, 100, 3])
    }

    @Test func receiveTimeoutAndDontWaitReturnNil() throws {
        var options = ZMQSocketOptions()
        options.receiveTimeoutMilliseconds = 20
        let dealer = try context.socket(.dealer, options: options)
        try dealer.bind("inproc://silent-\(UUID().uuidString)")
        #expect(try dealer.receive() == nil)
        #expect(try dealer.receive(dontWait: true) == nil)
        #expect(try dealer.withReceivedMessage(dontWait: true) { _ in 1 } == nil)
    }

    @Test func sendWithoutPeerWouldBlockIsFalseNotAnError() throws {
        let dealer = try context.socket(.dealer)  // no connection: nothing to queue to
        #expect(try dealer.send([[1]], dontWait: true) == false)
    }

    @Test func oversizedMessageIsDroppedAndTheSocketKeepsServingFreshConnections() throws {
        var routerOptions = ZMQSocketOptions()
        routerOptions.maxMessageBytes = 1_024
        let router = try context.socket(.router, options: routerOptions)
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = try router.lastEndpoint()

        var bigOptions = ZMQSocketOptions()
        bigOptions.routingID = Array("big".utf8)
        let big = try context.socket(.dealer, options: bigOptions)
        try big.connect(endpoint)
        #expect(try big.send([Array(repeating: 0xAB, count: 4_096)]))

        var smallOptions = ZMQSocketOptions()
        smallOptions.routingID = Array("small".utf8)
        let small = try context.socket(.dealer, options: smallOptions)
        try small.connect(endpoint)
        #expect(try small.send([Array("fits".utf8)]))

        let first = try #require(try receive(router))
        #expect(first == [Array("small".utf8), Array("fits".utf8)])
        // The oversized message never shows up.
        #expect(try receive(router, within: 300) == nil)
    }

    @Test func errorsNameTheFailingFunction() throws {
        let socket = try context.socket(.router)
        let bindError = #expect(throws: ZMQError.self) { try socket.bind("nonsense://nowhere") }
        #expect(bindError?.function == "zmq_bind")
        #expect(bindError?.code == .protocolNotSupported)
        #expect(bindError?.message.isEmpty == false)

        socket.close()
        socket.close()  // idempotent
        let closedError = #expect(throws: ZMQError.self) { try socket.connect("tcp://127.0.0.1:1") }
        #expect(closedError?.function == "zmq_connect")
        #expect(closedError?.code == .notSocket)
    }

    @Test func emptyMessageIsRejectedAsAValue() throws {
        let socket = try context.socket(.dealer)
        let error = #expect(throws: ZMQError.self) { try socket.send([]) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func pollerReportsFileDescriptorAndSocketReadiness() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { Foundation.close(fds[0]); Foundation.close(fds[1]) }
        let endpoint = "inproc://poll-\(UUID().uuidString)"
        let pair = try context.socket(.pair)
        try pair.bind(endpoint)
        let peer = try context.socket(.pair)
        try peer.connect(endpoint)

        var poller = ZMQPoller()
        let socketIndex = poller.add(pair)
        let pipeIndex = poller.add(fileDescriptor: fds[0])
        #expect(try poller.poll(timeoutMilliseconds: 0) == 0)

        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(try poller.poll(timeoutMilliseconds: 5_000) == 1)
        #expect(poller.isReadable(pipeIndex))
        #expect(!poller.isReadable(socketIndex))
        #expect(read(fds[0], &byte, 1) == 1)

        #expect(try peer.send([[9]]))
        #expect(try poller.poll(timeoutMilliseconds: 5_000) == 1)
        #expect(poller.isReadable(socketIndex))
        #expect(!poller.isReadable(pipeIndex))
    }

    @Test func terminatedContextRefusesNewSockets() throws {
        let context = try ZMQContext()
        context.terminate()
        context.terminate()  // idempotent
        #expect(context.isTerminated)
        let error = #expect(throws: ZMQError.self) { try context.socket(.dealer) }
        #expect(error?.code == .contextTerminated)
        #expect(error?.function == "zmq_socket")
    }
}
