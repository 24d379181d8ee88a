// Placeholder until the target's first test lands (issue #5).
