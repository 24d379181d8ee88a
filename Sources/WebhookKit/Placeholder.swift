// Placeholder until WebhookKit's first file lands (issue #6).
