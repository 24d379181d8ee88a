// Swift values for the administration messages of proto/appointment.proto (call types and calendars).
// C structs never leave this file: building one uses a CArena, reading one deep-copies into Swift values.
import CKYCProto
import CProtobufC

/// Opening hours on one weekday; several entries for one weekday make a split day.
public struct WorkingHours: Sendable, Equatable, Hashable {
    /// ISO 8601 weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int32
    /// "HH:mm" in the calendar's zone.
    public var opens: String
    /// "HH:mm" (or "24:00") in the calendar's zone.
    public var closes: String

    public init(weekday: Int32, opens: String, closes: String) {
        self.weekday = weekday
        self.opens = opens
        self.closes = closes
    }
}

/// A call type's calendar: when video calls can be booked and how many at once.
public struct CalendarSettings: Sendable, Equatable {
    /// IANA time zone identifier.
    public var timeZone: String
    public var workingHours: [WorkingHours]
    public var slotMinutes: Int32
    /// Places per slot (agents on duty).
    public var capacity: Int32
    /// "YYYY-MM-DD" in the calendar's zone.
    public var closedDates: [String]
    public var horizonDays: Int32
    public var minimumNoticeMinutes: Int32
    public var cancellationCutoffMinutes: Int32

    public init(timeZone: String = "", workingHours: [WorkingHours] = [], slotMinutes: Int32 = 0,
                capacity: Int32 = 0, closedDates: [String] = [], horizonDays: Int32 = 0,
                minimumNoticeMinutes: Int32 = 0, cancellationCutoffMinutes: Int32 = 0) {
        self.timeZone = timeZone
        self.workingHours = workingHours
        self.slotMinutes = slotMinutes
        self.capacity = capacity
        self.closedDates = closedDates
        self.horizonDays = horizonDays
        self.minimumNoticeMinutes = minimumNoticeMinutes
        self.cancellationCutoffMinutes = cancellationCutoffMinutes
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__CalendarSettings> {
        let message = arena.allocate(Kyc__V1__CalendarSettings.self)
        kyc__v1__calendar_settings__init(message)
        message.pointee.time_zone = arena.string(timeZone)
        let hours = arena.pointerArray(of: Kyc__V1__WorkingHours.self, count: workingHours.count)
        for (index, entry) in workingHours.enumerated() {
            let item = arena.allocate(Kyc__V1__WorkingHours.self)
            kyc__v1__working_hours__init(item)
            item.pointee.weekday = entry.weekday
            item.pointee.opens = arena.string(entry.opens)
            item.pointee.closes = arena.string(entry.closes)
            hours![index] = item
        }
        message.pointee.n_working_hours = workingHours.count
        message.pointee.working_hours = hours
        message.pointee.slot_minutes = slotMinutes
        message.pointee.capacity = capacity
        message.pointee.n_closed_dates = closedDates.count
        message.pointee.closed_dates = arena.stringArray(closedDates)
        message.pointee.horizon_days = horizonDays
        message.pointee.minimum_notice_minutes = minimumNoticeMinutes
        message.pointee.cancellation_cutoff_minutes = cancellationCutoffMinutes
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__CalendarSettings>) {
        let c = pointer.pointee
        self.init(timeZone: CRead.string(c.time_zone),
                  workingHours: CRead.messages(c.n_working_hours, c.working_hours) { item in
                      WorkingHours(weekday: item.pointee.weekday, opens: CRead.string(item.pointee.opens),
                                   closes: CRead.string(item.pointee.closes))
                  },
                  slotMinutes: c.slot_minutes, capacity: c.capacity,
                  closedDates: CRead.strings(c.n_closed_dates, c.closed_dates), horizonDays: c.horizon_days,
                  minimumNoticeMinutes: c.minimum_notice_minutes,
                  cancellationCutoffMinutes: c.cancellation_cutoff_minutes)
    }
}

/// `appointment.AdminGetCalendar` (call type only) and `appointment.AdminPutCalendar`.
public struct CalendarRequest: WireMessage, Equatable {
    public var callType: String
    public var calendar: CalendarSettings?
    /// Cancel bookings the new calendar strands instead of refusing the change.
    public var force: Bool

    public init(callType: String = "", calendar: CalendarSettings? = nil, force: Bool = false) {
        self.callType = callType
        self.calendar = calendar
        self.force = force
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CalendarRequest.self)
        kyc__v1__calendar_request__init(message)
        message.pointee.call_type = arena.string(callType)
        message.pointee.calendar = calendar?.cMessage(in: arena)
        message.pointee.force = force ? 1 : 0
        return pack(message, size: { kyc__v1__calendar_request__get_packed_size($0) },
                    pack: { kyc__v1__calendar_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CalendarRequest",
                          unpack: { kyc__v1__calendar_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__calendar_request__free_unpacked($0, nil) }) { message in
            CalendarRequest(callType: CRead.string(message.pointee.call_type),
                            calendar: message.pointee.calendar.map(CalendarSettings.init),
                            force: message.pointee.force != 0)
        }
    }
}

public struct CalendarReply: WireMessage, Equatable {
    public var callType: String
    public var calendar: CalendarSettings
    /// False when the platform's default calendar applies.
    public var customized: Bool
    /// Bookings a forced change cancelled.
    public var cancelledAppointments: Int32

    public init(callType: String, calendar: CalendarSettings, customized: Bool, cancelledAppointments: Int32 = 0) {
        self.callType = callType
        self.calendar = calendar
        self.customized = customized
        self.cancelledAppointments = cancelledAppointments
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CalendarReply.self)
        kyc__v1__calendar_reply__init(message)
        message.pointee.call_type = arena.string(callType)
        message.pointee.calendar = calendar.cMessage(in: arena)
        message.pointee.customized = customized ? 1 : 0
        message.pointee.cancelled_appointments = cancelledAppointments
        return pack(message, size: { kyc__v1__calendar_reply__get_packed_size($0) },
                    pack: { kyc__v1__calendar_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CalendarReply",
                          unpack: { kyc__v1__calendar_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__calendar_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return CalendarReply(callType: CRead.string(c.call_type),
                                 calendar: c.calendar.map(CalendarSettings.init) ?? CalendarSettings(),
                                 customized: c.customized != 0, cancelledAppointments: c.cancelled_appointments)
        }
    }
}

/// `appointment.AdminPutCallTypes`: the tenant's whole list of call types (both handlers), in display order.
public struct PutCallTypesRequest: WireMessage, Equatable {
    public var callTypes: [CallType]
    /// Cancel active bookings of removed call types instead of refusing the change.
    public var force: Bool

    public init(callTypes: [CallType], force: Bool = false) {
        self.callTypes = callTypes
        self.force = force
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__PutCallTypesRequest.self)
        kyc__v1__put_call_types_request__init(message)
        message.pointee.n_call_types = callTypes.count
        message.pointee.call_types = CallType.cArray(callTypes, in: arena)
        message.pointee.force = force ? 1 : 0
        return pack(message, size: { kyc__v1__put_call_types_request__get_packed_size($0) },
                    pack: { kyc__v1__put_call_types_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "PutCallTypesRequest",
                          unpack: { kyc__v1__put_call_types_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__put_call_types_request__free_unpacked($0, nil) }) { message in
            PutCallTypesRequest(callTypes: CRead.messages(message.pointee.n_call_types, message.pointee.call_types,
                                                          CallType.init),
                                force: message.pointee.force != 0)
        }
    }
}

public struct AdminCallTypesReply: WireMessage, Equatable {
    public var callTypes: [CallType]
    /// False when the tenant sees the platform's defaults.
    public var customized: Bool
    public var cancelledAppointments: Int32

    public init(callTypes: [CallType], customized: Bool, cancelledAppointments: Int32 = 0) {
        self.callTypes = callTypes
        self.customized = customized
        self.cancelledAppointments = cancelledAppointments
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AdminCallTypesReply.self)
        kyc__v1__admin_call_types_reply__init(message)
        message.pointee.n_call_types = callTypes.count
        message.pointee.call_types = CallType.cArray(callTypes, in: arena)
        message.pointee.customized = customized ? 1 : 0
        message.pointee.cancelled_appointments = cancelledAppointments
        return pack(message, size: { kyc__v1__admin_call_types_reply__get_packed_size($0) },
                    pack: { kyc__v1__admin_call_types_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AdminCallTypesReply",
                          unpack: { kyc__v1__admin_call_types_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__admin_call_types_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return AdminCallTypesReply(callTypes: CRead.messages(c.n_call_types, c.call_types, CallType.init),
                                       customized: c.customized != 0, cancelledAppointments: c.cancelled_appointments)
        }
    }
}

extension CallType {
    init(_ item: UnsafeMutablePointer<Kyc__V1__CallType>) {
        self.init(code: CRead.string(item.pointee.code), name: CRead.string(item.pointee.name),
                  handler: CRead.string(item.pointee.handler))
    }

    static func cArray(_ callTypes: [CallType], in arena: CArena)
        -> UnsafeMutablePointer<UnsafeMutablePointer<Kyc__V1__CallType>?>? {
        let array = arena.pointerArray(of: Kyc__V1__CallType.self, count: callTypes.count)
        for (index, callType) in callTypes.enumerated() {
            let item = arena.allocate(Kyc__V1__CallType.self)
            kyc__v1__call_type__init(item)
            item.pointee.code = arena.string(callType.code)
            item.pointee.name = arena.string(callType.name)
            item.pointee.handler = arena.string(callType.handler)
            array![index] = item
        }
        return array
    }
}
