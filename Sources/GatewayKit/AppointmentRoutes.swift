/// Appointment routes (issue #3) → AppointmentService; `/v1/call-types` lives in CallTypeRoutes.
enum AppointmentRoutes {
    static func routes() -> [Route] { [] }
}
