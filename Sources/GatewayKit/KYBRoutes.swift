/// Corporate onboarding routes (issue #4) → KYBService.
enum KYBRoutes {
    static func routes() -> [Route] { [] }
}
