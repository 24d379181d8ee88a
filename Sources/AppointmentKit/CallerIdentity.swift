import KYCMessages
import Messaging
import Validation

/// A customer's identity in canonical form: the document kind and its normalised number.
public struct CustomerIdentity: Sendable, Hashable {
    public let type: IdentityDocumentType
    public let number: String
}

/// Decides whose appointments a request may touch. An API key acts for any identity of its tenant and must name
/// one; a mobile session acts only for the identity its backend opened it with: naming another one is 403
/// `identity_mismatch`, naming none means its own.
enum CallerIdentity {
    enum Resolution {
        case identity(CustomerIdentity)
        /// The named identity is malformed (422), or an API key named none.
        case invalid([FieldViolation])
    }

    static func resolve(_ principal: Principal, identityType: String, identityNo: String) throws -> Resolution {
        let named = !identityType.isEmpty || !identityNo.isEmpty
        switch principal.kind {
        case .apiKey:
            var missing: [FieldViolation] = []
            if identityType.isEmpty {
                missing.append(FieldViolation(field: "identityType", code: "required", message: "identityType is required"))
            }
            if identityNo.isEmpty {
                missing.append(FieldViolation(field: "identityNo", code: "required", message: "identityNo is required"))
            }
            if !missing.isEmpty { return .invalid(missing) }
            return validate(identityType, identityNo)
        case .session:
            guard let own = sessionIdentity(principal) else { throw AppointmentFailure.sessionWithoutIdentity }
            guard named else { return .identity(own) }
            switch validate(identityType.isEmpty ? own.type.rawValue : identityType, identityNo) {
            case let .invalid(found): return .invalid(found)
            case let .identity(requested):
                guard requested == own else { throw AppointmentFailure.identityMismatch }
                return .identity(own)
            }
        case .unspecified:
            throw AppointmentFailure.callerNotAllowed
        }
    }

    /// The session's identity in canonical form; a backend that left out the type gets it inferred from the number.
    static func sessionIdentity(_ principal: Principal) -> CustomerIdentity? {
        guard let identity = principal.identity, !identity.identityNo.isEmpty else { return nil }
        let candidates = identity.identityType.isEmpty ? ["TCKN", "FOREIGN_ID", "PASSPORT"] : [identity.identityType]
        for type in candidates {
            if let valid = try? IdentityDocument.validate(type: type, number: identity.identityNo) {
                return CustomerIdentity(type: valid.type, number: valid.number)
            }
        }
        return nil
    }

    static func validate(_ type: String, _ number: String) -> Resolution {
        do {
            let valid = try IdentityDocument.validate(type: type, number: number)
            return .identity(CustomerIdentity(type: valid.type, number: valid.number))
        } catch {
            return .invalid([FieldViolation(field: error.field, code: error.code, message: error.message)])
        }
    }
}
