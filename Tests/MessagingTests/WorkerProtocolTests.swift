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
            .ready(service: "KYB", instance: "host-1#0"), .ready(service: "Capture", instance: "c#1", capacity: 300),
            .request(ticket: 0x0102_0304_0506_0708, envelope: [1, 2]),
            .reply(ticket: .max, envelope: []), .heartbeat, .disconnect,
        ]
        for message in messages { #expect(parse(WorkerProtocol.frames(message)) == message) }
    }

    @Test func ticketIsEightBytesBigEndian() {
        #expect(WorkerProtocol.ticketFrame(0x0102_0304_0506_0708) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(WorkerProtocol.ticket(from: [1, 2, 3]) == nil)
    }

    @Test func readyWithoutACapacityFrameMeansOneAtATime() {
        let frames = [WorkerProtocol.tag, [0x01], Array("KYB".utf8), Array("k#0".utf8)]
        #expect(parse(frames) == .ready(service: "KYB", instance: "k#0", capacity: 1))
        #expect(WorkerProtocol.frames(.ready(service: "KYB", instance: "k#0", capacity: 300)).last == [0, 0, 1, 44])
    }

    @Test func readyWithABadCapacityIsRejected() {
        let head = [WorkerProtocol.tag, [0x01], Array("KYB".utf8), Array("k#0".utf8)]
        #expect(parse(head + [[0, 0, 0, 0]]) == nil)        // zero places
        #expect(parse(head + [[0, 0, 4, 1]]) == nil)        // 1025 > maxCapacity
        #expect(parse(head + [[0, 1]]) == nil)              // not 4 bytes
        #expect(parse(head + [[0, 0, 0, 1], []]) == nil)    // one frame too many
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
