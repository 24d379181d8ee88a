import KYCCore
import KYCMessages
import Messaging

/// The `signing.*` methods of proto/signing.proto, decoded and answered by a `SigningDesk`.
public enum SigningHandlers {
    public static func register(_ desk: SigningDesk, into router: inout ServiceRouter) {
        router.register("signing.CreateRequest") { envelope in
            try desk.createRequest(try decode(CreateSigningRequest.self, envelope), envelope: envelope).serialized()
        }
        router.register("signing.GetRequest") { envelope in
            try desk.getRequest(try decode(GetSigningRequest.self, envelope).reference, envelope: envelope).serialized()
        }
        router.register("signing.GetDocumentContent") { envelope in
            try desk.documentContent(try decode(GetSigningDocumentContentRequest.self, envelope), envelope: envelope)
                .serialized()
        }
        router.register("signing.EnrolKey") { envelope in
            try desk.enrolKey(try decode(EnrolSigningKeyRequest.self, envelope), envelope: envelope).serialized()
        }
        router.register("signing.IssuePlatformKey") { envelope in
            try desk.issuePlatformKey(try decode(IssuePlatformSigningKeyRequest.self, envelope).reference,
                                      envelope: envelope).serialized()
        }
        router.register("signing.Sign") { envelope in
            try desk.sign(try decode(SignDocumentRequest.self, envelope), envelope: envelope).serialized()
        }
        router.register("signing.Finish") { envelope in
            try desk.finish(try decode(FinishSigningRequest.self, envelope).reference, envelope: envelope).serialized()
        }
        router.register("signing.GetEvidence") { envelope in
            try desk.evidence(try decode(GetSigningEvidenceRequest.self, envelope).reference, envelope: envelope)
                .serialized()
        }
        router.register("signing.GetPlatformKey") { _ in desk.platformKey.serialized() }
    }

    static func decode<M: WireMessage>(_ type: M.Type, _ envelope: RequestEnvelope) throws -> M {
        do {
            return try M(serialized: envelope.payload)
        } catch {
            throw ServiceError.invalidArgument(field: "payload", code: "malformed_payload",
                                               message: "the request payload is not a valid message")
        }
    }
}
