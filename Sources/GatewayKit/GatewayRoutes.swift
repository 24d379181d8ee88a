/// Every route the gateway serves. docs/openapi.yaml documents each one (a test keeps the two in step).
enum GatewayRoutes {
    static func table(_ dependencies: GatewayDependencies) -> RouteTable {
        RouteTable(PlatformRoutes.routes(dependencies) + SessionRoutes.routes(dependencies) + CallTypeRoutes.routes()
            + AppointmentRoutes.routes() + KYBRoutes.routes() + SigningRoutes.routes(dependencies) + WebhookRoutes.routes())
    }
}
