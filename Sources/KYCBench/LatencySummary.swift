/// Percentiles of a set of round-trip times, computed once from the raw samples (nearest-rank method, no
/// interpolation, so every reported value is a time that was actually measured).
struct LatencySummary: Sendable {
    let count: Int
    let meanMicroseconds: Double
    let p50Microseconds: Double
    let p90Microseconds: Double
    let p99Microseconds: Double
    let p999Microseconds: Double
    let maxMicroseconds: Double

    /// `samples` are durations in nanoseconds; must not be empty.
    init(nanoseconds samples: [UInt64]) {
        precondition(!samples.isEmpty, "LatencySummary needs at least one sample")
        let sorted = samples.sorted()
        func rank(_ quantile: Double) -> Double {
            let index = min(sorted.count - 1, max(0, Int((quantile * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1_000
        }
        count = sorted.count
        meanMicroseconds = Double(sorted.reduce(0, +)) / Double(sorted.count) / 1_000
        p50Microseconds = rank(0.50)
        p90Microseconds = rank(0.90)
        p99Microseconds = rank(0.99)
        p999Microseconds = rank(0.999)
        maxMicroseconds = Double(sorted[sorted.count - 1]) / 1_000
    }

    /// `key=value` lines under `prefix`, for scripts.
    func keyValueLines(prefix: String) -> [String] {
        [
            "\(prefix).samples=\(count)",
            "\(prefix).mean_us=\(Format.fixed(meanMicroseconds, 1))",
            "\(prefix).p50_us=\(Format.fixed(p50Microseconds, 1))",
            "\(prefix).p90_us=\(Format.fixed(p90Microseconds, 1))",
            "\(prefix).p99_us=\(Format.fixed(p99Microseconds, 1))",
            "\(prefix).p999_us=\(Format.fixed(p999Microseconds, 1))",
            "\(prefix).max_us=\(Format.fixed(maxMicroseconds, 1))",
        ]
    }
}

/// Number formatting without Foundation's locale-dependent `String(format:)`.
enum Format {
    /// `value` with exactly `digits` decimals, e.g. `fixed(1.234, 2) == "1.23"`.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let fractionText = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }

    /// `text` padded on the left to `width` characters (right-aligned table cells).
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `text` padded on the right to `width` characters.
    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
