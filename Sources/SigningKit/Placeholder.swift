// Placeholder until SigningKit's first file lands (issue #6).
