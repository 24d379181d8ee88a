// Placeholder until KYBKit's first test lands (issue #4).
