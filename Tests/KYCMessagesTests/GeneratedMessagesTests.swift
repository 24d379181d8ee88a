import KYCMessages
import Testing

/// The choices scripts/generate-swift-messages makes that the golden-bytes contract tests do not pin down: presence
/// wrappers, always-present and omitted-when-default message fields, nested messages as wire messages of their own,
/// the `has_…` flag behind SignDocumentRequest.shownData, and decoding errors.
@Suite("Generated message wrappers")
struct GeneratedMessagesTests {
    @Test func alwaysPresentFieldIsSentEvenWhenDefaultAndReadAsDefaultWhenAbsent() throws {
        // RedeliverReply.delivery is in the generator's ALWAYS_PRESENT_FIELDS: an empty nested message on the wire.
        #expect(RedeliverReply().serialized() == [0x0A, 0x00])
        #expect(try RedeliverReply(serialized: []).delivery == Delivery())
    }

    @Test func omittedWhenDefaultFieldIsLeftOutOnlyWhenDefault() throws {
        // RequestEnvelope.principal is in OMITTED_WHEN_DEFAULT_FIELDS: not optional in Swift, absent on the wire when
        // it equals Principal(), and an explicit empty principal reads as the default too.
        #expect(RequestEnvelope(principal: Principal()).serialized().isEmpty)
        #expect(RequestEnvelope(principal: Principal(id: "k")).serialized() == [0x22, 0x03, 0x12, 0x01, 0x6B])
        #expect(try RequestEnvelope(serialized: [0x22, 0x00]).principal == Principal())
    }

    @Test func optionalMessageFieldIsAbsentWhenNil() throws {
        #expect(AnalyzeFrameReply(region: nil).serialized().isEmpty)
        let reply = AnalyzeFrameReply(region: CaptureDocumentRegion())
        #expect(reply.serialized() == [0x1A, 0x00])
        #expect(try AnalyzeFrameReply(serialized: reply.serialized()).region == CaptureDocumentRegion())
    }

    @Test func presenceWrapperKeepsZeroApartFromAbsent() throws {
        let measuredZero = CaptureFeedback(code: "GOOD", value: 0, threshold: nil)
        let decoded = try CaptureFeedback(serialized: measuredZero.serialized())
        #expect(decoded.value == 0)
        #expect(decoded.threshold == nil)
        #expect(CaptureFeedback(code: "GOOD").serialized() != measuredZero.serialized())
    }

    @Test func nestedMessagesRoundTripOnTheirOwn() throws {
        let attempt = DeliveryAttempt(number: 2, attemptedAtUnixMs: 1_795_000_005_250, httpStatus: 204,
                                      durationMs: 9, url: "https://hooks.example.com/kyc")
        #expect(try DeliveryAttempt(serialized: attempt.serialized()) == attempt)
        let point = CapturePoint(x: 12.5, y: -3)
        #expect(try CapturePoint(serialized: point.serialized()) == point)
    }

    @Test func shownDataKeepsEmptyBytesApartFromNone() throws {
        // SignDocumentRequest+Extensions: `shownData` is the wire's `data` + `has_data` as one optional.
        let none = SignDocumentRequest(reference: "r", shownData: nil)
        #expect(!none.hasData)
        #expect(try SignDocumentRequest(serialized: none.serialized()).shownData == nil)
        let empty = SignDocumentRequest(reference: "r", shownData: [])
        #expect(empty.hasData)
        #expect(try SignDocumentRequest(serialized: empty.serialized()).shownData == [])
        var request = SignDocumentRequest(reference: "r", data: [1, 2], hasData: true)
        #expect(request.shownData == [1, 2])
        request.shownData = nil
        #expect(request.data.isEmpty && !request.hasData)
    }

    @Test func malformedBytesNameTheSwiftType() {
        #expect(throws: MessageDecodingError(messageName: "RedeliverReply", byteCount: 2)) {
            try RedeliverReply(serialized: [0x0A, 0x05])
        }
        #expect(throws: MessageDecodingError(messageName: "CaptureFeedback", byteCount: 1)) {
            try CaptureFeedback(serialized: [0xFF])
        }
    }
}
