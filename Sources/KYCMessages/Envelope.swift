// Swift values for proto/envelope.proto, encoded and decoded through the protobuf-c code in CKYCProto.
// C structs never leave this file: building one uses a CArena, reading one deep-copies into Swift values.
import CKYCProto
import CProtobufC

/// Status of a reply; see proto/envelope.proto for the meaning of each and docs/protocol.md for HTTP mapping.
public enum StatusCode: Int32, Sendable, CaseIterable {
    case ok = 0
    case invalidArgument = 1
    case notFound = 2
    case alreadyExists = 3
    case failedPrecondition = 4
    case permissionDenied = 5
    case unauthenticated = 6
    case resourceExhausted = 7
    case deadlineExceeded = 8
    case unavailable = 9
    case internalError = 10
    case unimplemented = 11

    /// The machine-readable code used when a reply names none of its own.
    public var defaultErrorCode: String {
        switch self {
        case .ok: "ok"
        case .invalidArgument: "invalid_argument"
        case .notFound: "not_found"
        case .alreadyExists: "already_exists"
        case .failedPrecondition: "failed_precondition"
        case .permissionDenied: "permission_denied"
        case .unauthenticated: "unauthenticated"
        case .resourceExhausted: "resource_exhausted"
        case .deadlineExceeded: "deadline_exceeded"
        case .unavailable: "unavailable"
        case .internalError: "internal"
        case .unimplemented: "unimplemented"
        }
    }
}

public enum PrincipalKind: Int32, Sendable {
    case unspecified = 0
    case apiKey = 1
    case session = 2
}

/// The person a mobile session was opened for.
public struct Identity: Sendable, Equatable, Hashable {
    public var identityType: String
    public var identityNo: String
    public var name: String
    public var surname: String
    /// Declared by the customer backend when it opened the session; never taken from the mobile request.
    public var isPriorityCustomer: Bool

    public init(identityType: String = "", identityNo: String = "", name: String = "", surname: String = "",
                isPriorityCustomer: Bool = false) {
        self.identityType = identityType
        self.identityNo = identityNo
        self.name = name
        self.surname = surname
        self.isPriorityCustomer = isPriorityCustomer
    }

    public var isEmpty: Bool {
        identityType.isEmpty && identityNo.isEmpty && name.isEmpty && surname.isEmpty && !isPriorityCustomer
    }
}

/// Who is calling; filled by the gateway after authentication.
public struct Principal: Sendable, Equatable {
    public var kind: PrincipalKind
    public var id: String
    public var scopes: [String]
    public var identity: Identity?
    /// Sessions only: the KYB business the session was opened for (empty when none).
    public var businessUID: String

    public init(kind: PrincipalKind = .unspecified, id: String = "", scopes: [String] = [], identity: Identity? = nil,
                businessUID: String = "") {
        self.kind = kind
        self.id = id
        self.scopes = scopes
        self.identity = identity
        self.businessUID = businessUID
    }
}

public struct RequestEnvelope: WireMessage, Equatable {
    public var requestID: String
    public var traceID: String
    public var tenant: String
    public var principal: Principal
    /// Wall-clock deadline in milliseconds since the Unix epoch; 0 means none.
    public var deadlineUnixMs: Int64
    public var method: String
    public var payload: [UInt8]

    public init(requestID: String = "", traceID: String = "", tenant: String = "", principal: Principal = Principal(),
                deadlineUnixMs: Int64 = 0, method: String = "", payload: [UInt8] = []) {
        self.requestID = requestID
        self.traceID = traceID
        self.tenant = tenant
        self.principal = principal
        self.deadlineUnixMs = deadlineUnixMs
        self.method = method
        self.payload = payload
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__RequestEnvelope.self)
        kyc__v1__request_envelope__init(message)
        message.pointee.request_id = arena.string(requestID)
        message.pointee.trace_id = arena.string(traceID)
        message.pointee.tenant = arena.string(tenant)
        // An empty principal is left out, as protoc leaves out an unset message field.
        message.pointee.principal = principal == Principal() ? nil : principal.cMessage(in: arena)
        message.pointee.deadline_unix_ms = deadlineUnixMs
        message.pointee.method = arena.string(method)
        message.pointee.payload = arena.bytes(payload)
        return pack(message, size: { kyc__v1__request_envelope__get_packed_size($0) },
                    pack: { kyc__v1__request_envelope__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "RequestEnvelope",
                          unpack: { kyc__v1__request_envelope__unpack(nil, $0, $1) },
                          free: { kyc__v1__request_envelope__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return RequestEnvelope(
                requestID: CRead.string(c.request_id), traceID: CRead.string(c.trace_id),
                tenant: CRead.string(c.tenant), principal: c.principal.map { Principal($0) } ?? Principal(),
                deadlineUnixMs: c.deadline_unix_ms, method: CRead.string(c.method), payload: CRead.bytes(c.payload))
        }
    }
}

public struct FieldViolation: Sendable, Equatable {
    /// JSON path of the offending field, e.g. `identityNo`.
    public var field: String
    /// Machine-readable, e.g. `invalid_checksum`.
    public var code: String
    public var message: String

    public init(field: String, code: String, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }
}

public struct ReplyEnvelope: WireMessage, Equatable {
    public var requestID: String
    public var status: StatusCode
    public var reason: String
    public var errorCode: String
    public var violations: [FieldViolation]
    public var payload: [UInt8]

    public init(requestID: String = "", status: StatusCode = .ok, reason: String = "", errorCode: String = "",
                violations: [FieldViolation] = [], payload: [UInt8] = []) {
        self.requestID = requestID
        self.status = status
        self.reason = reason
        self.errorCode = errorCode
        self.violations = violations
        self.payload = payload
    }

    public static func success(requestID: String, payload: [UInt8]) -> ReplyEnvelope {
        ReplyEnvelope(requestID: requestID, status: .ok, payload: payload)
    }

    public static func failure(requestID: String, status: StatusCode, reason: String, errorCode: String = "",
                               violations: [FieldViolation] = []) -> ReplyEnvelope {
        ReplyEnvelope(requestID: requestID, status: status, reason: reason,
                      errorCode: errorCode.isEmpty ? status.defaultErrorCode : errorCode, violations: violations)
    }

    /// The machine-readable error code: the reply's own, or the status's default.
    public var effectiveErrorCode: String { errorCode.isEmpty ? status.defaultErrorCode : errorCode }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ReplyEnvelope.self)
        kyc__v1__reply_envelope__init(message)
        message.pointee.request_id = arena.string(requestID)
        message.pointee.status = Kyc__V1__StatusCode(rawValue: UInt32(bitPattern: status.rawValue))
        message.pointee.reason = arena.string(reason)
        message.pointee.error_code = arena.string(errorCode)
        let array = arena.pointerArray(of: Kyc__V1__FieldViolation.self, count: violations.count)
        for (index, violation) in violations.enumerated() {
            let item = arena.allocate(Kyc__V1__FieldViolation.self)
            kyc__v1__field_violation__init(item)
            item.pointee.field = arena.string(violation.field)
            item.pointee.code = arena.string(violation.code)
            item.pointee.message = arena.string(violation.message)
            array![index] = item
        }
        message.pointee.n_violations = violations.count
        message.pointee.violations = array
        message.pointee.payload = arena.bytes(payload)
        return pack(message, size: { kyc__v1__reply_envelope__get_packed_size($0) },
                    pack: { kyc__v1__reply_envelope__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ReplyEnvelope",
                          unpack: { kyc__v1__reply_envelope__unpack(nil, $0, $1) },
                          free: { kyc__v1__reply_envelope__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            // An unknown status from a newer peer is treated as an internal error rather than trusted.
            let status = StatusCode(rawValue: Int32(bitPattern: c.status.rawValue)) ?? .internalError
            let violations = CRead.messages(c.n_violations, c.violations) { item in
                FieldViolation(field: CRead.string(item.pointee.field), code: CRead.string(item.pointee.code),
                               message: CRead.string(item.pointee.message))
            }
            return ReplyEnvelope(requestID: CRead.string(c.request_id), status: status,
                                 reason: CRead.string(c.reason), errorCode: CRead.string(c.error_code),
                                 violations: violations, payload: CRead.bytes(c.payload))
        }
    }
}

extension Principal {
    init(_ message: UnsafeMutablePointer<Kyc__V1__Principal>) {
        let c = message.pointee
        let kind = PrincipalKind(rawValue: Int32(bitPattern: c.kind.rawValue)) ?? .unspecified
        var identity: Identity?
        if let i = c.identity {
            identity = Identity(identityType: CRead.string(i.pointee.identity_type),
                                identityNo: CRead.string(i.pointee.identity_no),
                                name: CRead.string(i.pointee.name), surname: CRead.string(i.pointee.surname),
                                isPriorityCustomer: i.pointee.is_priority_customer != 0)
        }
        self.init(kind: kind, id: CRead.string(c.id), scopes: CRead.strings(c.n_scopes, c.scopes), identity: identity,
                  businessUID: CRead.string(c.business_uid))
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__Principal> {
        let message = arena.allocate(Kyc__V1__Principal.self)
        kyc__v1__principal__init(message)
        message.pointee.kind = Kyc__V1__PrincipalKind(rawValue: UInt32(bitPattern: kind.rawValue))
        message.pointee.id = arena.string(id)
        message.pointee.n_scopes = scopes.count
        message.pointee.scopes = arena.stringArray(scopes)
        if let identity {
            let item = arena.allocate(Kyc__V1__Identity.self)
            kyc__v1__identity__init(item)
            item.pointee.identity_type = arena.string(identity.identityType)
            item.pointee.identity_no = arena.string(identity.identityNo)
            item.pointee.name = arena.string(identity.name)
            item.pointee.surname = arena.string(identity.surname)
            item.pointee.is_priority_customer = identity.isPriorityCustomer ? 1 : 0
            message.pointee.identity = item
        }
        message.pointee.business_uid = arena.string(businessUID)
        return message
    }
}
