// Placeholder until FrameAnalysis's first file lands (issue #5).
