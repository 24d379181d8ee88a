import KYCCore
import KYCMessages
import Messaging

/// The AppointmentService's operations, as functions from a request envelope to a reply payload, registered on a
/// `ServiceRouter` that the worker runtime serves.
public struct AppointmentHandlers: Sendable {
    public static let service = "appointment"

    let catalog: CallTypeCatalog

    public init(catalog: CallTypeCatalog) {
        self.catalog = catalog
    }

    /// A router serving every appointment operation.
    public func router(version: String, logger: Logger) -> ServiceRouter {
        var router = ServiceRouter(service: Self.service, version: version, logger: logger)
        router.register("appointment.ListCallTypes", listCallTypes)
        return router
    }

    /// `appointment.ListCallTypes`: the caller's tenant's call types for the requested handler (KYC by default).
    public func listCallTypes(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request: ListCallTypesRequest
        do {
            request = try ListCallTypesRequest(serialized: envelope.payload)
        } catch {
            throw ServiceError.invalidArgument(field: "payload", code: "malformed_payload",
                                               message: "the ListCallTypesRequest payload is malformed")
        }
        let handlerName = request.handler.isEmpty ? "KYC" : request.handler.uppercased()
        guard let handler = CallTypeCatalog.Handler(rawValue: handlerName) else {
            throw ServiceError.invalidArgument(field: "handler", code: "invalid_handler",
                                               message: "handler must be KYC or KYB")
        }
        return ListCallTypesReply(callTypes: try catalog.callTypes(tenant: envelope.tenant, handler: handler))
            .serialized()
    }
}
