// Placeholder until KYBKit's first file lands (issue #4).
