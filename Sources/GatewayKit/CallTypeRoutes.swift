import KYCMessages

/// `GET /v1/call-types[?handler=KYB]` → AppointmentService's `appointment.ListCallTypes`.
enum CallTypeRoutes {
    static func routes() -> [Route] {
        [
            Route("GET", "/v1/call-types", access: .apiKeyOrSession(sessionScope: nil), action: .service(ServiceCall(
                service: "appointment", method: "appointment.ListCallTypes",
                buildPayload: { context in
                    ListCallTypesRequest(handler: context.request.query["handler"] ?? "").serialized()
                },
                renderReply: { payload, _ in
                    let reply = try ListCallTypesReply(serialized: payload)
                    return .object([("callTypes", .object(reply.callTypes.map { ($0.code, .string($0.name)) }))])
                }))),
        ]
    }
}
