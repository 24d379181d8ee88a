import KYCMessages

/// The AppointmentService's operations, as pure functions from a request envelope to a reply payload; the service
/// executable registers them on a `ServiceRouter`.
public struct AppointmentHandlers: Sendable {
    public static let service = "appointment"

    let catalog: CallTypeCatalog

    public init(catalog: CallTypeCatalog) {
        self.catalog = catalog
    }

    /// `appointment.ListCallTypes`: the caller's tenant's call types for the requested handler (KYC by default).
    public func listCallTypes(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request: ListCallTypesRequest
        do {
            request = try ListCallTypesRequest(serialized: envelope.payload)
        } catch {
            throw AppointmentError.malformedPayload
        }
        let handlerName = request.handler.isEmpty ? "KYC" : request.handler.uppercased()
        guard let handler = CallTypeCatalog.Handler(rawValue: handlerName) else {
            throw AppointmentError.invalidHandler(request.handler)
        }
        return ListCallTypesReply(callTypes: try catalog.callTypes(tenant: envelope.tenant, handler: handler))
            .serialized()
    }
}

/// Domain failures of the AppointmentService.
public enum AppointmentError: Error, Sendable, Equatable {
    case malformedPayload
    case invalidHandler(String)
}
