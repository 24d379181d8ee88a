// Placeholder until the target's first real test lands.
