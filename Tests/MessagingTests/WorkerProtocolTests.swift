import Testing
@testable import Messaging

@Suite struct WorkerProtocolTests {
    func parse(_ frames: [[UInt8]]) -> WorkerProtocol.Message? {
        let buffers = frames.map { frame in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: frame.count, alignment: 1)
            copy.copyBytes(from: frame)
            return UnsafeRawBufferPointer(copy)
        }
        defer { buffers.forEach { $0.deallocate() } }
        return WorkerProtocol.parse(buffers[...])
    }

    @Test func everyMessageRoundTrips() {
        let messages: [WorkerProtocol.Message] = [
            .ready(service: "KYB", instance: "host-1#0"), .request(ticket: 0x0102_0304_0506_0708, envelope: [1, 2]),
            .reply(ticket: .max, envelope: []), .heartbeat, .disconnect,
        ]
        for message in messages { #expect(parse(WorkerProtocol.frames(message)) == message) }
    }

    @Test func ticketIsEightBytesBigEndian() {
        #expect(WorkerProtocol.ticketFrame(0x0102_0304_0506_0708) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(WorkerProtocol.ticket(from: [1, 2, 3]) == nil)
    }

    @Test func malformedFrameSetsAreRejected() {
        let tag = WorkerProtocol.tag
        #expect(parse([]) == nil)
        #expect(parse([tag]) == nil)
        #expect(parse([Array("KYC/W2".utf8), [0x04]]) == nil)
        #expect(parse([tag, [0x09]]) == nil)
        #expect(parse([tag, [0x04, 0x04]]) == nil)
        #expect(parse([tag, [0x04], [1]]) == nil)
        #expect(parse([tag, [0x01], Array("KYB".utf8)]) == nil)
        #expect(parse([tag, [0x01], [], []]) == nil)
        #expect(parse([tag, [0x01], [0xFF, 0xFE], []]) == nil)
        #expect(parse([tag, [0x02], [1, 2, 3], [1]]) == nil)
        #expect(parse([tag, [0x03], WorkerProtocol.ticketFrame(1)]) == nil)
    }
}
