import Credentials
import KYCMessages

/// Administration of call types and their calendars (admin API key). `PUT` replaces the whole resource; a change
/// that would strand upcoming bookings is 409 unless `force=true` (query or body), which cancels them.
enum AppointmentAdminRoutes {
    static func routes() -> [Route] {
        let admin = RouteAccess.apiKey(scope: Scope.admin)
        let service = AppointmentRoutes.service
        return [
            Route("GET", "/v1/admin/call-types", access: admin, action: .service(ServiceCall(
                service: service, method: "appointment.AdminGetCallTypes",
                buildPayload: { _ in [] },
                renderReply: { payload, _ in AppointmentJSON.callTypes(try AdminCallTypesReply(serialized: payload)) }))),
            Route("PUT", "/v1/admin/call-types", access: admin, action: .service(ServiceCall(
                service: service, method: "appointment.AdminPutCallTypes",
                buildPayload: { context in
                    let body = try context.jsonBody()
                    let reader = JSONFieldReader(body)
                    let items = try objectArray(reader, "callTypes", maxCount: 100) ?? []
                    let types = try items.enumerated().map { index, item in
                        let fields = JSONFieldReader(item, path: "callTypes[\(index)]")
                        return CallType(code: try fields.requiredString("code", maxLength: 64),
                                        name: try fields.requiredString("name", maxLength: 200),
                                        handler: (try fields.string("handler", maxLength: 8) ?? "KYC").uppercased())
                    }
                    return PutCallTypesRequest(callTypes: types, force: try force(context, reader)).serialized()
                },
                renderReply: { payload, _ in AppointmentJSON.callTypes(try AdminCallTypesReply(serialized: payload)) }))),
            Route("GET", "/v1/admin/call-types/{callType}/calendar", access: admin, action: .service(ServiceCall(
                service: service, method: "appointment.AdminGetCalendar",
                buildPayload: { context in
                    CalendarRequest(callType: context.pathParameters["callType"] ?? "").serialized()
                },
                renderReply: { payload, _ in AppointmentJSON.calendar(try CalendarReply(serialized: payload)) }))),
            Route("PUT", "/v1/admin/call-types/{callType}/calendar", access: admin, action: .service(ServiceCall(
                service: service, method: "appointment.AdminPutCalendar",
                buildPayload: { context in
                    let reader = JSONFieldReader(try context.jsonBody())
                    return CalendarRequest(callType: context.pathParameters["callType"] ?? "",
                                           calendar: try calendarSettings(reader),
                                           force: try force(context, reader)).serialized()
                },
                renderReply: { payload, _ in AppointmentJSON.calendar(try CalendarReply(serialized: payload)) }))),
        ]
    }

    static func force(_ context: RouteContext, _ reader: JSONFieldReader) throws -> Bool {
        try AppointmentQuery.bool(context.request.query, "force") || (try reader.bool("force") ?? false)
    }

    /// A full calendar: every field is required (GET's answer is a valid PUT body).
    static func calendarSettings(_ reader: JSONFieldReader) throws -> CalendarSettings {
        func requiredInteger(_ key: String) throws -> Int32 {
            guard let value = try reader.integer(key) else {
                throw APIError.invalidField(reader.fieldPath(key), "required", "\(reader.fieldPath(key)) is required")
            }
            guard let narrow = Int32(exactly: value) else {
                throw APIError.invalidField(reader.fieldPath(key), "out_of_range", "\(reader.fieldPath(key)) is too large")
            }
            return narrow
        }
        guard let hourItems = try objectArray(reader, "workingHours", maxCount: 64) else {
            throw APIError.invalidField("workingHours", "required", "workingHours is required (may be empty)")
        }
        let hours = try hourItems.enumerated().map { index, item in
            let fields = JSONFieldReader(item, path: "workingHours[\(index)]")
            return WorkingHours(weekday: try weekday(fields), opens: try fields.requiredString("opens", maxLength: 5),
                                closes: try fields.requiredString("closes", maxLength: 5))
        }
        return CalendarSettings(
            timeZone: try reader.requiredString("timeZone", maxLength: 64), workingHours: hours,
            slotMinutes: try requiredInteger("slotMinutes"), capacity: try requiredInteger("capacity"),
            closedDates: try reader.stringArray("closedDates", maxCount: 1000) ?? [],
            horizonDays: try requiredInteger("horizonDays"),
            minimumNoticeMinutes: try requiredInteger("minimumNoticeMinutes"),
            cancellationCutoffMinutes: try requiredInteger("cancellationCutoffMinutes"))
    }

    /// `MON`…`SUN` (any case) or the ISO number 1…7.
    static func weekday(_ fields: JSONFieldReader) throws -> Int32 {
        let path = fields.fieldPath("weekday")
        guard let value = fields.object["weekday"], !value.isNull else {
            throw APIError.invalidField(path, "required", "\(path) is required")
        }
        if let number = value.integerValue, (1...7).contains(number) { return Int32(number) }
        if let name = value.stringValue, let index = AppointmentJSON.weekdayNames.firstIndex(of: name.uppercased()) {
            return Int32(index + 1)
        }
        throw APIError.invalidField(path, "invalid_weekday", "\(path) must be MON…SUN or 1…7")
    }

    /// An array of JSON objects, or nil when absent.
    static func objectArray(_ reader: JSONFieldReader, _ key: String, maxCount: Int) throws -> [JSONValue]? {
        guard let value = reader.object[key], !value.isNull else { return nil }
        guard let items = value.arrayValue, items.count <= maxCount else {
            throw APIError.invalidField(reader.fieldPath(key), "invalid_type",
                                        "\(reader.fieldPath(key)) must be an array of at most \(maxCount) objects")
        }
        for (index, item) in items.enumerated() where item.objectValue == nil {
            throw APIError.invalidField("\(reader.fieldPath(key))[\(index)]", "invalid_type", "must be an object")
        }
        return items
    }
}
