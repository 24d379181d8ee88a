/// Webhook endpoint and delivery routes (issue #6) → WebhookService.
enum WebhookRoutes {
    static func routes() -> [Route] { [] }
}
