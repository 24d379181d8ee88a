// Placeholder until Webhooks's first file lands (issue #6).
