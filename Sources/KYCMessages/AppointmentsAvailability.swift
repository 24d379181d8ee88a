// Swift values for the availability messages of proto/appointment.proto.
// C structs never leave this file: building one uses a CArena, reading one deep-copies into Swift values.
import CKYCProto
import CProtobufC

/// `appointment.Availability`: free places per slot of a call type's calendar between two instants or dates.
public struct AvailabilityRequest: WireMessage, Equatable {
    public var callType: String
    /// ISO 8601 date (`2026-12-01`, calendar's zone) or date-time with offset; empty: now.
    public var startDate: String
    /// ISO 8601 date (inclusive) or date-time; empty: seven days after the start.
    public var endDate: String
    /// Also list slots with no place left (`count` 0).
    public var includeFull: Bool

    public init(callType: String = "", startDate: String = "", endDate: String = "", includeFull: Bool = false) {
        self.callType = callType
        self.startDate = startDate
        self.endDate = endDate
        self.includeFull = includeFull
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AvailabilityRequest.self)
        kyc__v1__availability_request__init(message)
        message.pointee.call_type = arena.string(callType)
        message.pointee.start_date = arena.string(startDate)
        message.pointee.end_date = arena.string(endDate)
        message.pointee.include_full = includeFull ? 1 : 0
        return pack(message, size: { kyc__v1__availability_request__get_packed_size($0) },
                    pack: { kyc__v1__availability_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AvailabilityRequest",
                          unpack: { kyc__v1__availability_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__availability_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return AvailabilityRequest(callType: CRead.string(c.call_type), startDate: CRead.string(c.start_date),
                                       endDate: CRead.string(c.end_date), includeFull: c.include_full != 0)
        }
    }
}

/// One slot of a calendar and how many places it has left.
public struct AvailableSlot: Sendable, Equatable {
    /// "YYYY-MM-DD" in the calendar's zone.
    public var date: String
    /// "HH:mm" in the calendar's zone.
    public var startTime: String
    public var endTime: String
    /// Places still free.
    public var count: Int32
    public var capacity: Int32

    public init(date: String, startTime: String, endTime: String, count: Int32, capacity: Int32) {
        self.date = date
        self.startTime = startTime
        self.endTime = endTime
        self.count = count
        self.capacity = capacity
    }
}

public struct AvailabilityReply: WireMessage, Equatable {
    public var timeZone: String
    /// In time order.
    public var slots: [AvailableSlot]

    public init(timeZone: String, slots: [AvailableSlot]) {
        self.timeZone = timeZone
        self.slots = slots
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__AvailabilityReply.self)
        kyc__v1__availability_reply__init(message)
        message.pointee.time_zone = arena.string(timeZone)
        let array = arena.pointerArray(of: Kyc__V1__Slot.self, count: slots.count)
        for (index, slot) in slots.enumerated() {
            let item = arena.allocate(Kyc__V1__Slot.self)
            kyc__v1__slot__init(item)
            item.pointee.date = arena.string(slot.date)
            item.pointee.start_time = arena.string(slot.startTime)
            item.pointee.end_time = arena.string(slot.endTime)
            item.pointee.count = slot.count
            item.pointee.capacity = slot.capacity
            array![index] = item
        }
        message.pointee.n_slots = slots.count
        message.pointee.slots = array
        return pack(message, size: { kyc__v1__availability_reply__get_packed_size($0) },
                    pack: { kyc__v1__availability_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "AvailabilityReply",
                          unpack: { kyc__v1__availability_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__availability_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return AvailabilityReply(timeZone: CRead.string(c.time_zone),
                                     slots: CRead.messages(c.n_slots, c.slots) { item in
                AvailableSlot(date: CRead.string(item.pointee.date), startTime: CRead.string(item.pointee.start_time),
                              endTime: CRead.string(item.pointee.end_time), count: item.pointee.count,
                              capacity: item.pointee.capacity)
            })
        }
    }
}
