import KYCMessages

/// The JSON shapes of appointment replies, with the field names the mobile SDKs use.
enum AppointmentJSON {
    static func appointment(_ appointment: Appointment) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("uId", .string(appointment.uid)),
            ("callType", .string(appointment.callType)),
            ("callTypeValue", .string(appointment.callTypeName)),
            ("identityType", .string(appointment.identityType)),
            ("identityNo", .string(appointment.identityNo)),
            ("name", .string(appointment.name)),
            ("surname", .string(appointment.surname)),
            ("phone", .string(appointment.phone)),
            ("email", .string(appointment.email)),
            ("startDate", .string(appointment.startDate)),
            ("endDate", .string(appointment.endDate)),
            ("isPriorityCustomer", .bool(appointment.isPriorityCustomer)),
            ("status", .string(appointment.status)),
        ]
        if !appointment.cancelReason.isEmpty { fields.append(("cancelReason", .string(appointment.cancelReason))) }
        return .object(fields)
    }

    static func availability(_ reply: AvailabilityReply) -> JSONValue {
        .object([
            ("timeZone", .string(reply.timeZone)),
            ("slots", .array(reply.slots.map { slot in
                .object([("date", .string(slot.date)), ("startTime", .string(slot.startTime)),
                         ("endTime", .string(slot.endTime)), ("count", .integer(Int64(slot.count)))])
            })),
        ])
    }

    /// The agenda grouped by slot (appointments arrive ordered by start, priority customers first).
    static func agenda(_ reply: AgendaReply, callType: String, date: String) -> JSONValue {
        var slots: [(start: Int64, startDate: String, endDate: String, items: [JSONValue])] = []
        for item in reply.appointments {
            if slots.last?.start == item.startUnixMs {
                slots[slots.count - 1].items.append(appointment(item))
            } else {
                slots.append((item.startUnixMs, item.startDate, item.endDate, [appointment(item)]))
            }
        }
        return .object([
            ("callType", .string(callType)), ("date", .string(date)), ("timeZone", .string(reply.timeZone)),
            ("slots", .array(slots.map { slot in
                .object([("startTime", .string(clockTime(slot.startDate))), ("endTime", .string(clockTime(slot.endDate))),
                         ("startDate", .string(slot.startDate)), ("appointments", .array(slot.items))])
            })),
        ])
    }

    /// `HH:mm` of an ISO 8601 date-time such as `2026-12-01T10:00:00+03:00`.
    static func clockTime(_ iso: String) -> String {
        let characters = Array(iso)
        guard characters.count >= 16 else { return "" }
        return String(characters[11..<16])
    }

    static let weekdayNames = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]

    static func calendar(_ reply: CalendarReply) -> JSONValue {
        let settings = reply.calendar
        return .object([
            ("callType", .string(reply.callType)),
            ("timeZone", .string(settings.timeZone)),
            ("workingHours", .array(settings.workingHours.map { hours in
                .object([("weekday", .string((1...7).contains(hours.weekday) ? weekdayNames[Int(hours.weekday) - 1]
                                                : String(hours.weekday))),
                         ("opens", .string(hours.opens)), ("closes", .string(hours.closes))])
            })),
            ("slotMinutes", .integer(Int64(settings.slotMinutes))),
            ("capacity", .integer(Int64(settings.capacity))),
            ("closedDates", .array(settings.closedDates.map(JSONValue.string))),
            ("horizonDays", .integer(Int64(settings.horizonDays))),
            ("minimumNoticeMinutes", .integer(Int64(settings.minimumNoticeMinutes))),
            ("cancellationCutoffMinutes", .integer(Int64(settings.cancellationCutoffMinutes))),
            ("customized", .bool(reply.customized)),
            ("cancelledAppointments", .integer(Int64(reply.cancelledAppointments))),
        ])
    }

    static func callTypes(_ reply: AdminCallTypesReply) -> JSONValue {
        .object([
            ("callTypes", .array(reply.callTypes.map { type in
                .object([("code", .string(type.code)), ("name", .string(type.name)), ("handler", .string(type.handler))])
            })),
            ("customized", .bool(reply.customized)),
            ("cancelledAppointments", .integer(Int64(reply.cancelledAppointments))),
        ])
    }
}
