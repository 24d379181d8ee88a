// Swift values for the staff messages of proto/kyb.proto: the people who act for a business.
import CKYCProto
import CProtobufC

/// One person who acts for a business.
public struct KYBStaffMember: Sendable, Equatable {
    public var staffUID: String
    /// The mobile session the person verifies in, when known.
    public var sessionUID: String
    public var name: String
    public var surname: String
    public var identityNo: String
    /// `YYYY-MM-DD`.
    public var birthDate: String
    /// E.164, e.g. `+905321234567`.
    public var phone: String
    public var createdAtUnixMs: Int64

    public init(staffUID: String = "", sessionUID: String = "", name: String = "", surname: String = "",
                identityNo: String = "", birthDate: String = "", phone: String = "", createdAtUnixMs: Int64 = 0) {
        self.staffUID = staffUID
        self.sessionUID = sessionUID
        self.name = name
        self.surname = surname
        self.identityNo = identityNo
        self.birthDate = birthDate
        self.phone = phone
        self.createdAtUnixMs = createdAtUnixMs
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__KybStaffMember> {
        let message = arena.allocate(Kyc__V1__KybStaffMember.self)
        kyc__v1__kyb_staff_member__init(message)
        message.pointee.staff_uid = arena.string(staffUID)
        message.pointee.session_uid = arena.string(sessionUID)
        message.pointee.name = arena.string(name)
        message.pointee.surname = arena.string(surname)
        message.pointee.identity_no = arena.string(identityNo)
        message.pointee.birth_date = arena.string(birthDate)
        message.pointee.phone = arena.string(phone)
        message.pointee.created_at_unix_ms = createdAtUnixMs
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__KybStaffMember>) {
        let c = pointer.pointee
        self.init(staffUID: CRead.string(c.staff_uid), sessionUID: CRead.string(c.session_uid),
                  name: CRead.string(c.name), surname: CRead.string(c.surname),
                  identityNo: CRead.string(c.identity_no), birthDate: CRead.string(c.birth_date),
                  phone: CRead.string(c.phone), createdAtUnixMs: c.created_at_unix_ms)
    }
}

/// `kyb.AddStaff`.
public struct AddBusinessStaffRequest: WireMessage, Equatable {
    public var businessUID: String
    public var sessionUID: String
    public var name: String
    public var surname: String
    public var identityNo: String
    public var birthDate: String
    public var phone: String

    public init(businessUID: String = "", sessionUID: String = "", name: String = "", surname: String = "",
                identityNo: String = "", birthDate: String = "", phone: String = "") {
        self.businessUID = businessUID
        self.sessionUID = sessionUID
        self.name = name
        self.surname = surname
        self.identityNo = identityNo
        self.birthDate = birthDate
        self.phone = phone
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AddBusinessStaffRequest.self)
        kyc__v1__add_business_staff_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.session_uid = arena.string(sessionUID)
        message.pointee.name = arena.string(name)
        message.pointee.surname = arena.string(surname)
        message.pointee.identity_no = arena.string(identityNo)
        message.pointee.birth_date = arena.string(birthDate)
        message.pointee.phone = arena.string(phone)
        return pack(message, size: { kyc__v1__add_business_staff_request__get_packed_size($0) },
                    pack: { kyc__v1__add_business_staff_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AddBusinessStaffRequest",
                          unpack: { kyc__v1__add_business_staff_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__add_business_staff_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return AddBusinessStaffRequest(businessUID: CRead.string(c.business_uid),
                                           sessionUID: CRead.string(c.session_uid), name: CRead.string(c.name),
                                           surname: CRead.string(c.surname), identityNo: CRead.string(c.identity_no),
                                           birthDate: CRead.string(c.birth_date), phone: CRead.string(c.phone))
        }
    }
}

public struct AddBusinessStaffReply: WireMessage, Equatable {
    public var staff: KYBStaffMember
    public var outcome: KYBCreateOutcome

    public init(staff: KYBStaffMember = KYBStaffMember(), outcome: KYBCreateOutcome = .created) {
        self.staff = staff
        self.outcome = outcome
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AddBusinessStaffReply.self)
        kyc__v1__add_business_staff_reply__init(message)
        message.pointee.staff = staff.cMessage(in: arena)
        message.pointee.outcome = outcome.cValue
        return pack(message, size: { kyc__v1__add_business_staff_reply__get_packed_size($0) },
                    pack: { kyc__v1__add_business_staff_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AddBusinessStaffReply",
                          unpack: { kyc__v1__add_business_staff_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__add_business_staff_reply__free_unpacked($0, nil) }) { message in
            AddBusinessStaffReply(staff: message.pointee.staff.map { KYBStaffMember($0) } ?? KYBStaffMember(),
                                  outcome: KYBCreateOutcome(message.pointee.outcome))
        }
    }
}

/// `kyb.CheckStaff`.
public struct CheckBusinessStaffRequest: WireMessage, Equatable {
    public var businessUID: String
    public var identityNo: String

    public init(businessUID: String = "", identityNo: String = "") {
        self.businessUID = businessUID
        self.identityNo = identityNo
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CheckBusinessStaffRequest.self)
        kyc__v1__check_business_staff_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.identity_no = arena.string(identityNo)
        return pack(message, size: { kyc__v1__check_business_staff_request__get_packed_size($0) },
                    pack: { kyc__v1__check_business_staff_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CheckBusinessStaffRequest",
                          unpack: { kyc__v1__check_business_staff_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__check_business_staff_request__free_unpacked($0, nil) }) { message in
            CheckBusinessStaffRequest(businessUID: CRead.string(message.pointee.business_uid),
                                      identityNo: CRead.string(message.pointee.identity_no))
        }
    }
}

public struct CheckBusinessStaffReply: WireMessage, Equatable {
    public var exists: Bool

    public init(exists: Bool = false) { self.exists = exists }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CheckBusinessStaffReply.self)
        kyc__v1__check_business_staff_reply__init(message)
        message.pointee.exists = exists ? 1 : 0
        return pack(message, size: { kyc__v1__check_business_staff_reply__get_packed_size($0) },
                    pack: { kyc__v1__check_business_staff_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CheckBusinessStaffReply",
                          unpack: { kyc__v1__check_business_staff_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__check_business_staff_reply__free_unpacked($0, nil) }) { message in
            CheckBusinessStaffReply(exists: message.pointee.exists != 0)
        }
    }
}

/// `kyb.ListStaff`.
public struct ListBusinessStaffRequest: WireMessage, Equatable {
    public var businessUID: String

    public init(businessUID: String = "") { self.businessUID = businessUID }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListBusinessStaffRequest.self)
        kyc__v1__list_business_staff_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        return pack(message, size: { kyc__v1__list_business_staff_request__get_packed_size($0) },
                    pack: { kyc__v1__list_business_staff_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListBusinessStaffRequest",
                          unpack: { kyc__v1__list_business_staff_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_business_staff_request__free_unpacked($0, nil) }) { message in
            ListBusinessStaffRequest(businessUID: CRead.string(message.pointee.business_uid))
        }
    }
}

public struct ListBusinessStaffReply: WireMessage, Equatable {
    /// In the order they were added.
    public var staff: [KYBStaffMember]

    public init(staff: [KYBStaffMember] = []) { self.staff = staff }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListBusinessStaffReply.self)
        kyc__v1__list_business_staff_reply__init(message)
        message.pointee.n_staff = staff.count
        message.pointee.staff = arena.messageArray(staff) { $0.cMessage(in: arena) }
        return pack(message, size: { kyc__v1__list_business_staff_reply__get_packed_size($0) },
                    pack: { kyc__v1__list_business_staff_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListBusinessStaffReply",
                          unpack: { kyc__v1__list_business_staff_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_business_staff_reply__free_unpacked($0, nil) }) { message in
            ListBusinessStaffReply(staff: CRead.messages(message.pointee.n_staff, message.pointee.staff) {
                KYBStaffMember($0)
            })
        }
    }
}
