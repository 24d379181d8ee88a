// Placeholder until CaptureKit's first file lands (issue #5).
