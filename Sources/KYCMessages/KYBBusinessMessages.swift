// Swift values for the business messages of proto/kyb.proto (check, create, update, read). C structs never leave
// this file: building one uses a CArena, reading one deep-copies into Swift values.
import CKYCProto
import CProtobufC

/// How a create request ended.
public enum KYBCreateOutcome: Int32, Sendable, Equatable {
    /// The record was created by this request (also answered to a retry of the same request).
    case created = 0
    /// Another request created it first; the reply carries the existing record.
    case alreadyExists = 1

    init(_ c: Kyc__V1__KybCreateOutcome) {
        self = KYBCreateOutcome(rawValue: Int32(bitPattern: c.rawValue)) ?? .created
    }

    var cValue: Kyc__V1__KybCreateOutcome { Kyc__V1__KybCreateOutcome(rawValue: UInt32(bitPattern: rawValue)) }
}

/// `kyb.CheckBusiness`: is this tax number registered for the caller's tenant?
public struct CheckBusinessRequest: WireMessage, Equatable {
    public var taxNumber: String

    public init(taxNumber: String = "") { self.taxNumber = taxNumber }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CheckBusinessRequest.self)
        kyc__v1__check_business_request__init(message)
        message.pointee.tax_number = arena.string(taxNumber)
        return pack(message, size: { kyc__v1__check_business_request__get_packed_size($0) },
                    pack: { kyc__v1__check_business_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CheckBusinessRequest",
                          unpack: { kyc__v1__check_business_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__check_business_request__free_unpacked($0, nil) }) { message in
            CheckBusinessRequest(taxNumber: CRead.string(message.pointee.tax_number))
        }
    }
}

public struct CheckBusinessReply: WireMessage, Equatable {
    public var exists: Bool
    /// Empty when the tax number is not registered.
    public var businessUID: String
    /// Empty when the tax number is not registered.
    public var type: String

    public init(exists: Bool = false, businessUID: String = "", type: String = "") {
        self.exists = exists
        self.businessUID = businessUID
        self.type = type
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CheckBusinessReply.self)
        kyc__v1__check_business_reply__init(message)
        message.pointee.exists = exists ? 1 : 0
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.type = arena.string(type)
        return pack(message, size: { kyc__v1__check_business_reply__get_packed_size($0) },
                    pack: { kyc__v1__check_business_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CheckBusinessReply",
                          unpack: { kyc__v1__check_business_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__check_business_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return CheckBusinessReply(exists: c.exists != 0, businessUID: CRead.string(c.business_uid),
                                      type: CRead.string(c.type))
        }
    }
}

/// `kyb.CreateBusiness`.
public struct CreateBusinessRequest: WireMessage, Equatable {
    public var taxNumber: String
    public var name: String
    public var shortName: String
    /// A compact JSON object shown to reviewers; empty when none.
    public var dataJSON: String
    /// `limited`, `anonymous` or `sole_proprietorship`.
    public var type: String
    public var reference: String

    public init(taxNumber: String = "", name: String = "", shortName: String = "", dataJSON: String = "",
                type: String = "", reference: String = "") {
        self.taxNumber = taxNumber
        self.name = name
        self.shortName = shortName
        self.dataJSON = dataJSON
        self.type = type
        self.reference = reference
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CreateBusinessRequest.self)
        kyc__v1__create_business_request__init(message)
        message.pointee.tax_number = arena.string(taxNumber)
        message.pointee.name = arena.string(name)
        message.pointee.short_name = arena.string(shortName)
        message.pointee.data_json = arena.string(dataJSON)
        message.pointee.type = arena.string(type)
        message.pointee.reference = arena.string(reference)
        return pack(message, size: { kyc__v1__create_business_request__get_packed_size($0) },
                    pack: { kyc__v1__create_business_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CreateBusinessRequest",
                          unpack: { kyc__v1__create_business_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__create_business_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return CreateBusinessRequest(taxNumber: CRead.string(c.tax_number), name: CRead.string(c.name),
                                         shortName: CRead.string(c.short_name), dataJSON: CRead.string(c.data_json),
                                         type: CRead.string(c.type), reference: CRead.string(c.reference))
        }
    }
}

public struct CreateBusinessReply: WireMessage, Equatable {
    public var businessUID: String
    public var outcome: KYBCreateOutcome

    public init(businessUID: String = "", outcome: KYBCreateOutcome = .created) {
        self.businessUID = businessUID
        self.outcome = outcome
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CreateBusinessReply.self)
        kyc__v1__create_business_reply__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.outcome = outcome.cValue
        return pack(message, size: { kyc__v1__create_business_reply__get_packed_size($0) },
                    pack: { kyc__v1__create_business_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CreateBusinessReply",
                          unpack: { kyc__v1__create_business_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__create_business_reply__free_unpacked($0, nil) }) { message in
            CreateBusinessReply(businessUID: CRead.string(message.pointee.business_uid),
                                outcome: KYBCreateOutcome(message.pointee.outcome))
        }
    }
}

/// `kyb.UpdateBusiness`: nil fields are left as they are.
public struct UpdateBusinessRequest: WireMessage, Equatable {
    public var businessUID: String
    public var reference: String?
    public var isInProgress: Bool?
    public var type: String?

    public init(businessUID: String = "", reference: String? = nil, isInProgress: Bool? = nil, type: String? = nil) {
        self.businessUID = businessUID
        self.reference = reference
        self.isInProgress = isInProgress
        self.type = type
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__UpdateBusinessRequest.self)
        kyc__v1__update_business_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.reference = reference.map { arena.kybString($0) }
        message.pointee.type = type.map { arena.kybString($0) }
        if let isInProgress {
            let wrapper = arena.allocate(Kyc__V1__KybBoolValue.self)
            kyc__v1__kyb_bool_value__init(wrapper)
            wrapper.pointee.value = isInProgress ? 1 : 0
            message.pointee.is_in_progress = wrapper
        }
        return pack(message, size: { kyc__v1__update_business_request__get_packed_size($0) },
                    pack: { kyc__v1__update_business_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "UpdateBusinessRequest",
                          unpack: { kyc__v1__update_business_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__update_business_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return UpdateBusinessRequest(businessUID: CRead.string(c.business_uid),
                                         reference: c.reference.map { CRead.string($0.pointee.value) },
                                         isInProgress: c.is_in_progress.map { $0.pointee.value != 0 },
                                         type: c.type.map { CRead.string($0.pointee.value) })
        }
    }
}

/// `kyb.GetBusiness`.
public struct GetBusinessRequest: WireMessage, Equatable {
    public var businessUID: String

    public init(businessUID: String = "") { self.businessUID = businessUID }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetBusinessRequest.self)
        kyc__v1__get_business_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        return pack(message, size: { kyc__v1__get_business_request__get_packed_size($0) },
                    pack: { kyc__v1__get_business_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetBusinessRequest",
                          unpack: { kyc__v1__get_business_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_business_request__free_unpacked($0, nil) }) { message in
            GetBusinessRequest(businessUID: CRead.string(message.pointee.business_uid))
        }
    }
}

/// One entry of a business's status history: the status right after a change.
public struct KYBStatusChange: Sendable, Equatable {
    public var changedAtUnixMs: Int64
    /// `created` or `updated`.
    public var event: String
    /// JSON names of the fields that changed, e.g. `isInProgress`.
    public var changedFields: [String]
    public var reference: String
    public var isInProgress: Bool
    public var type: String
    /// The API key id or session id that made the change.
    public var changedBy: String
    public var requestID: String

    public init(changedAtUnixMs: Int64 = 0, event: String = "", changedFields: [String] = [], reference: String = "",
                isInProgress: Bool = false, type: String = "", changedBy: String = "", requestID: String = "") {
        self.changedAtUnixMs = changedAtUnixMs
        self.event = event
        self.changedFields = changedFields
        self.reference = reference
        self.isInProgress = isInProgress
        self.type = type
        self.changedBy = changedBy
        self.requestID = requestID
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__KybStatusChange> {
        let message = arena.allocate(Kyc__V1__KybStatusChange.self)
        kyc__v1__kyb_status_change__init(message)
        message.pointee.changed_at_unix_ms = changedAtUnixMs
        message.pointee.event = arena.string(event)
        message.pointee.n_changed_fields = changedFields.count
        message.pointee.changed_fields = arena.stringArray(changedFields)
        message.pointee.reference = arena.string(reference)
        message.pointee.is_in_progress = isInProgress ? 1 : 0
        message.pointee.type = arena.string(type)
        message.pointee.changed_by = arena.string(changedBy)
        message.pointee.request_id = arena.string(requestID)
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__KybStatusChange>) {
        let c = pointer.pointee
        self.init(changedAtUnixMs: c.changed_at_unix_ms, event: CRead.string(c.event),
                  changedFields: CRead.strings(c.n_changed_fields, c.changed_fields),
                  reference: CRead.string(c.reference), isInProgress: c.is_in_progress != 0,
                  type: CRead.string(c.type), changedBy: CRead.string(c.changed_by),
                  requestID: CRead.string(c.request_id))
    }
}

/// A business with everything a reviewer needs.
public struct KYBBusiness: Sendable, Equatable {
    public var businessUID: String
    public var taxNumber: String
    public var name: String
    public var shortName: String
    public var dataJSON: String
    public var type: String
    public var reference: String
    public var isInProgress: Bool
    public var createdAtUnixMs: Int64
    public var updatedAtUnixMs: Int64
    public var staff: [KYBStaffMember]
    public var documents: [KYBDocument]
    /// Oldest first.
    public var statusHistory: [KYBStatusChange]
    /// Required first-phase categories without a document.
    public var missingFirstPhase: [String]
    /// Required second-phase categories without a document.
    public var missingSecondPhase: [String]

    public init(businessUID: String = "", taxNumber: String = "", name: String = "", shortName: String = "",
                dataJSON: String = "", type: String = "", reference: String = "", isInProgress: Bool = false,
                createdAtUnixMs: Int64 = 0, updatedAtUnixMs: Int64 = 0, staff: [KYBStaffMember] = [],
                documents: [KYBDocument] = [], statusHistory: [KYBStatusChange] = [],
                missingFirstPhase: [String] = [], missingSecondPhase: [String] = []) {
        self.businessUID = businessUID
        self.taxNumber = taxNumber
        self.name = name
        self.shortName = shortName
        self.dataJSON = dataJSON
        self.type = type
        self.reference = reference
        self.isInProgress = isInProgress
        self.createdAtUnixMs = createdAtUnixMs
        self.updatedAtUnixMs = updatedAtUnixMs
        self.staff = staff
        self.documents = documents
        self.statusHistory = statusHistory
        self.missingFirstPhase = missingFirstPhase
        self.missingSecondPhase = missingSecondPhase
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__KybBusiness> {
        let message = arena.allocate(Kyc__V1__KybBusiness.self)
        kyc__v1__kyb_business__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.tax_number = arena.string(taxNumber)
        message.pointee.name = arena.string(name)
        message.pointee.short_name = arena.string(shortName)
        message.pointee.data_json = arena.string(dataJSON)
        message.pointee.type = arena.string(type)
        message.pointee.reference = arena.string(reference)
        message.pointee.is_in_progress = isInProgress ? 1 : 0
        message.pointee.created_at_unix_ms = createdAtUnixMs
        message.pointee.updated_at_unix_ms = updatedAtUnixMs
        message.pointee.n_staff = staff.count
        message.pointee.staff = arena.messageArray(staff) { $0.cMessage(in: arena) }
        message.pointee.n_documents = documents.count
        message.pointee.documents = arena.messageArray(documents) { $0.cMessage(in: arena) }
        message.pointee.n_status_history = statusHistory.count
        message.pointee.status_history = arena.messageArray(statusHistory) { $0.cMessage(in: arena) }
        message.pointee.n_missing_first_phase = missingFirstPhase.count
        message.pointee.missing_first_phase = arena.stringArray(missingFirstPhase)
        message.pointee.n_missing_second_phase = missingSecondPhase.count
        message.pointee.missing_second_phase = arena.stringArray(missingSecondPhase)
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__KybBusiness>) {
        let c = pointer.pointee
        self.init(businessUID: CRead.string(c.business_uid), taxNumber: CRead.string(c.tax_number),
                  name: CRead.string(c.name), shortName: CRead.string(c.short_name),
                  dataJSON: CRead.string(c.data_json), type: CRead.string(c.type),
                  reference: CRead.string(c.reference), isInProgress: c.is_in_progress != 0,
                  createdAtUnixMs: c.created_at_unix_ms, updatedAtUnixMs: c.updated_at_unix_ms,
                  staff: CRead.messages(c.n_staff, c.staff) { KYBStaffMember($0) },
                  documents: CRead.messages(c.n_documents, c.documents) { KYBDocument($0) },
                  statusHistory: CRead.messages(c.n_status_history, c.status_history) { KYBStatusChange($0) },
                  missingFirstPhase: CRead.strings(c.n_missing_first_phase, c.missing_first_phase),
                  missingSecondPhase: CRead.strings(c.n_missing_second_phase, c.missing_second_phase))
    }
}

/// The reply of `kyb.GetBusiness` and `kyb.UpdateBusiness`.
public struct BusinessReply: WireMessage, Equatable {
    public var business: KYBBusiness

    public init(business: KYBBusiness = KYBBusiness()) { self.business = business }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__BusinessReply.self)
        kyc__v1__business_reply__init(message)
        message.pointee.business = business.cMessage(in: arena)
        return pack(message, size: { kyc__v1__business_reply__get_packed_size($0) },
                    pack: { kyc__v1__business_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "BusinessReply",
                          unpack: { kyc__v1__business_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__business_reply__free_unpacked($0, nil) }) { message in
            BusinessReply(business: message.pointee.business.map { KYBBusiness($0) } ?? KYBBusiness())
        }
    }
}

extension CArena {
    /// A `KybStringValue` presence wrapper holding `value`.
    func kybString(_ value: String) -> UnsafeMutablePointer<Kyc__V1__KybStringValue> {
        let wrapper = allocate(Kyc__V1__KybStringValue.self)
        kyc__v1__kyb_string_value__init(wrapper)
        wrapper.pointee.value = string(value)
        return wrapper
    }
}
