// Swift values for the appointment messages of proto/appointment.proto (booking, listing, cancelling, agenda).
// C structs never leave this file: building one uses a CArena, reading one deep-copies into Swift values.
import CKYCProto
import CProtobufC

/// One booked (or cancelled) video-call appointment as the service reports it.
public struct Appointment: Sendable, Equatable {
    public var uid: String
    public var callType: String
    /// The call type's display name (`callTypeValue` in JSON).
    public var callTypeName: String
    /// Display name of the identity document type, e.g. "T.C. Kimlik Kartı".
    public var identityType: String
    public var identityNo: String
    public var name: String
    public var surname: String
    /// E.164.
    public var phone: String
    public var email: String
    public var startUnixMs: Int64
    public var endUnixMs: Int64
    /// ISO 8601 in the calendar's zone with its offset, e.g. `2026-12-01T10:00:00+03:00`.
    public var startDate: String
    public var endDate: String
    public var isPriorityCustomer: Bool
    /// "active", "past" or "cancelled".
    public var status: String
    /// Why it was cancelled ("customer", "calendar_changed", "call_type_removed"); empty otherwise.
    public var cancelReason: String
    public var createdUnixMs: Int64

    public init(uid: String = "", callType: String = "", callTypeName: String = "", identityType: String = "",
                identityNo: String = "", name: String = "", surname: String = "", phone: String = "",
                email: String = "", startUnixMs: Int64 = 0, endUnixMs: Int64 = 0, startDate: String = "",
                endDate: String = "", isPriorityCustomer: Bool = false, status: String = "",
                cancelReason: String = "", createdUnixMs: Int64 = 0) {
        self.uid = uid
        self.callType = callType
        self.callTypeName = callTypeName
        self.identityType = identityType
        self.identityNo = identityNo
        self.name = name
        self.surname = surname
        self.phone = phone
        self.email = email
        self.startUnixMs = startUnixMs
        self.endUnixMs = endUnixMs
        self.startDate = startDate
        self.endDate = endDate
        self.isPriorityCustomer = isPriorityCustomer
        self.status = status
        self.cancelReason = cancelReason
        self.createdUnixMs = createdUnixMs
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__Appointment> {
        let message = arena.allocate(Kyc__V1__Appointment.self)
        kyc__v1__appointment__init(message)
        message.pointee.uid = arena.string(uid)
        message.pointee.call_type = arena.string(callType)
        message.pointee.call_type_name = arena.string(callTypeName)
        message.pointee.identity_type = arena.string(identityType)
        message.pointee.identity_no = arena.string(identityNo)
        message.pointee.name = arena.string(name)
        message.pointee.surname = arena.string(surname)
        message.pointee.phone = arena.string(phone)
        message.pointee.email = arena.string(email)
        message.pointee.start_unix_ms = startUnixMs
        message.pointee.end_unix_ms = endUnixMs
        message.pointee.start_date = arena.string(startDate)
        message.pointee.end_date = arena.string(endDate)
        message.pointee.is_priority_customer = isPriorityCustomer ? 1 : 0
        message.pointee.status = arena.string(status)
        message.pointee.cancel_reason = arena.string(cancelReason)
        message.pointee.created_unix_ms = createdUnixMs
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__Appointment>) {
        let c = pointer.pointee
        self.init(uid: CRead.string(c.uid), callType: CRead.string(c.call_type),
                  callTypeName: CRead.string(c.call_type_name), identityType: CRead.string(c.identity_type),
                  identityNo: CRead.string(c.identity_no), name: CRead.string(c.name),
                  surname: CRead.string(c.surname), phone: CRead.string(c.phone), email: CRead.string(c.email),
                  startUnixMs: c.start_unix_ms, endUnixMs: c.end_unix_ms, startDate: CRead.string(c.start_date),
                  endDate: CRead.string(c.end_date), isPriorityCustomer: c.is_priority_customer != 0,
                  status: CRead.string(c.status), cancelReason: CRead.string(c.cancel_reason),
                  createdUnixMs: c.created_unix_ms)
    }

    static func cArray(_ appointments: [Appointment], in arena: CArena)
        -> UnsafeMutablePointer<UnsafeMutablePointer<Kyc__V1__Appointment>?>? {
        let array = arena.pointerArray(of: Kyc__V1__Appointment.self, count: appointments.count)
        for (index, appointment) in appointments.enumerated() { array![index] = appointment.cMessage(in: arena) }
        return array
    }
}

/// `appointment.ListAppointments`: an identity's appointments (a session may leave both fields empty).
public struct ListAppointmentsRequest: WireMessage, Equatable {
    public var identityType: String
    public var identityNo: String

    public init(identityType: String = "", identityNo: String = "") {
        self.identityType = identityType
        self.identityNo = identityNo
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListAppointmentsRequest.self)
        kyc__v1__list_appointments_request__init(message)
        message.pointee.identity_type = arena.string(identityType)
        message.pointee.identity_no = arena.string(identityNo)
        return pack(message, size: { kyc__v1__list_appointments_request__get_packed_size($0) },
                    pack: { kyc__v1__list_appointments_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListAppointmentsRequest",
                          unpack: { kyc__v1__list_appointments_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_appointments_request__free_unpacked($0, nil) }) { message in
            ListAppointmentsRequest(identityType: CRead.string(message.pointee.identity_type),
                                    identityNo: CRead.string(message.pointee.identity_no))
        }
    }
}

public struct ListAppointmentsReply: WireMessage, Equatable {
    /// Newest first.
    public var appointments: [Appointment]

    public init(appointments: [Appointment]) { self.appointments = appointments }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListAppointmentsReply.self)
        kyc__v1__list_appointments_reply__init(message)
        message.pointee.n_appointments = appointments.count
        message.pointee.appointments = Appointment.cArray(appointments, in: arena)
        return pack(message, size: { kyc__v1__list_appointments_reply__get_packed_size($0) },
                    pack: { kyc__v1__list_appointments_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListAppointmentsReply",
                          unpack: { kyc__v1__list_appointments_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_appointments_reply__free_unpacked($0, nil) }) { message in
            ListAppointmentsReply(appointments: CRead.messages(message.pointee.n_appointments,
                                                               message.pointee.appointments, Appointment.init))
        }
    }
}

/// `appointment.Book`: the mobile SDK's booking form plus the caller-chosen idempotency key `uid`.
public struct BookAppointmentRequest: WireMessage, Equatable {
    public var callType: String
    /// "YYYY-MM-DD" in the calendar's zone.
    public var date: String
    /// "HH:mm" in the calendar's zone.
    public var startTime: String
    public var identityType: String
    public var identityNo: String
    public var name: String
    public var surname: String
    public var phone: String
    public var email: String
    public var uid: String
    /// True when an API-key caller stated `isPriorityCustomer`; the service ignores it for sessions.
    public var prioritySpecified: Bool
    public var isPriorityCustomer: Bool

    public init(callType: String = "", date: String = "", startTime: String = "", identityType: String = "",
                identityNo: String = "", name: String = "", surname: String = "", phone: String = "",
                email: String = "", uid: String = "", prioritySpecified: Bool = false,
                isPriorityCustomer: Bool = false) {
        self.callType = callType
        self.date = date
        self.startTime = startTime
        self.identityType = identityType
        self.identityNo = identityNo
        self.name = name
        self.surname = surname
        self.phone = phone
        self.email = email
        self.uid = uid
        self.prioritySpecified = prioritySpecified
        self.isPriorityCustomer = isPriorityCustomer
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__BookAppointmentRequest.self)
        kyc__v1__book_appointment_request__init(message)
        message.pointee.call_type = arena.string(callType)
        message.pointee.date = arena.string(date)
        message.pointee.start_time = arena.string(startTime)
        message.pointee.identity_type = arena.string(identityType)
        message.pointee.identity_no = arena.string(identityNo)
        message.pointee.name = arena.string(name)
        message.pointee.surname = arena.string(surname)
        message.pointee.phone = arena.string(phone)
        message.pointee.email = arena.string(email)
        message.pointee.uid = arena.string(uid)
        message.pointee.priority_specified = prioritySpecified ? 1 : 0
        message.pointee.is_priority_customer = isPriorityCustomer ? 1 : 0
        return pack(message, size: { kyc__v1__book_appointment_request__get_packed_size($0) },
                    pack: { kyc__v1__book_appointment_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "BookAppointmentRequest",
                          unpack: { kyc__v1__book_appointment_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__book_appointment_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return BookAppointmentRequest(
                callType: CRead.string(c.call_type), date: CRead.string(c.date),
                startTime: CRead.string(c.start_time), identityType: CRead.string(c.identity_type),
                identityNo: CRead.string(c.identity_no), name: CRead.string(c.name), surname: CRead.string(c.surname),
                phone: CRead.string(c.phone), email: CRead.string(c.email), uid: CRead.string(c.uid),
                prioritySpecified: c.priority_specified != 0, isPriorityCustomer: c.is_priority_customer != 0)
        }
    }
}

public struct BookAppointmentReply: WireMessage, Equatable {
    public var appointment: Appointment
    /// False when an earlier identical request with the same `uid` had already booked it.
    public var created: Bool

    public init(appointment: Appointment, created: Bool) {
        self.appointment = appointment
        self.created = created
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__BookAppointmentReply.self)
        kyc__v1__book_appointment_reply__init(message)
        message.pointee.appointment = appointment.cMessage(in: arena)
        message.pointee.created = created ? 1 : 0
        return pack(message, size: { kyc__v1__book_appointment_reply__get_packed_size($0) },
                    pack: { kyc__v1__book_appointment_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "BookAppointmentReply",
                          unpack: { kyc__v1__book_appointment_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__book_appointment_reply__free_unpacked($0, nil) }) { message in
            BookAppointmentReply(appointment: message.pointee.appointment.map(Appointment.init) ?? Appointment(),
                                 created: message.pointee.created != 0)
        }
    }
}

/// `appointment.Cancel`: by `uid`, or the identity's active appointment of `callType`.
public struct CancelAppointmentRequest: WireMessage, Equatable {
    public var uid: String
    public var callType: String
    public var identityType: String
    public var identityNo: String

    public init(uid: String = "", callType: String = "", identityType: String = "", identityNo: String = "") {
        self.uid = uid
        self.callType = callType
        self.identityType = identityType
        self.identityNo = identityNo
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CancelAppointmentRequest.self)
        kyc__v1__cancel_appointment_request__init(message)
        message.pointee.uid = arena.string(uid)
        message.pointee.call_type = arena.string(callType)
        message.pointee.identity_type = arena.string(identityType)
        message.pointee.identity_no = arena.string(identityNo)
        return pack(message, size: { kyc__v1__cancel_appointment_request__get_packed_size($0) },
                    pack: { kyc__v1__cancel_appointment_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CancelAppointmentRequest",
                          unpack: { kyc__v1__cancel_appointment_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__cancel_appointment_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return CancelAppointmentRequest(uid: CRead.string(c.uid), callType: CRead.string(c.call_type),
                                            identityType: CRead.string(c.identity_type),
                                            identityNo: CRead.string(c.identity_no))
        }
    }
}

public struct CancelAppointmentReply: WireMessage, Equatable {
    /// False when there was nothing active to cancel.
    public var cancelled: Bool
    /// The appointment concerned, when there is one.
    public var appointment: Appointment?

    public init(cancelled: Bool, appointment: Appointment?) {
        self.cancelled = cancelled
        self.appointment = appointment
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CancelAppointmentReply.self)
        kyc__v1__cancel_appointment_reply__init(message)
        message.pointee.cancelled = cancelled ? 1 : 0
        message.pointee.appointment = appointment?.cMessage(in: arena)
        return pack(message, size: { kyc__v1__cancel_appointment_reply__get_packed_size($0) },
                    pack: { kyc__v1__cancel_appointment_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CancelAppointmentReply",
                          unpack: { kyc__v1__cancel_appointment_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__cancel_appointment_reply__free_unpacked($0, nil) }) { message in
            CancelAppointmentReply(cancelled: message.pointee.cancelled != 0,
                                   appointment: message.pointee.appointment.map(Appointment.init))
        }
    }
}

/// `appointment.Agenda`: the agents' list for one day of one call type.
public struct AgendaRequest: WireMessage, Equatable {
    public var callType: String
    public var date: String

    public init(callType: String = "", date: String = "") {
        self.callType = callType
        self.date = date
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AgendaRequest.self)
        kyc__v1__agenda_request__init(message)
        message.pointee.call_type = arena.string(callType)
        message.pointee.date = arena.string(date)
        return pack(message, size: { kyc__v1__agenda_request__get_packed_size($0) },
                    pack: { kyc__v1__agenda_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AgendaRequest",
                          unpack: { kyc__v1__agenda_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__agenda_request__free_unpacked($0, nil) }) { message in
            AgendaRequest(callType: CRead.string(message.pointee.call_type), date: CRead.string(message.pointee.date))
        }
    }
}

public struct AgendaReply: WireMessage, Equatable {
    public var timeZone: String
    /// By start; priority customers first within a slot, then in booking order.
    public var appointments: [Appointment]

    public init(timeZone: String, appointments: [Appointment]) {
        self.timeZone = timeZone
        self.appointments = appointments
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AgendaReply.self)
        kyc__v1__agenda_reply__init(message)
        message.pointee.time_zone = arena.string(timeZone)
        message.pointee.n_appointments = appointments.count
        message.pointee.appointments = Appointment.cArray(appointments, in: arena)
        return pack(message, size: { kyc__v1__agenda_reply__get_packed_size($0) },
                    pack: { kyc__v1__agenda_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AgendaReply",
                          unpack: { kyc__v1__agenda_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__agenda_reply__free_unpacked($0, nil) }) { message in
            AgendaReply(timeZone: CRead.string(message.pointee.time_zone),
                        appointments: CRead.messages(message.pointee.n_appointments, message.pointee.appointments,
                                                     Appointment.init))
        }
    }
}
