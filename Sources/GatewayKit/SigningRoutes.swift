/// Document signing routes (issue #6) → SigningService.
enum SigningRoutes {
    static func routes() -> [Route] { [] }
}
