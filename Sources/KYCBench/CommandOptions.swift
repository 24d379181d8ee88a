/// `--name value` options of one subcommand, parsed strictly: a value that is missing, not a number or out of range,
/// and any option nobody asked for, is a usage error rather than a silent default.
struct CommandOptions {
    private var values: [String: String] = [:]
    private var used: Set<String> = []

    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--") else {
                throw BenchError(.usage, function: "arguments", message: "unexpected argument '\(name)'")
            }
            guard let value = iterator.next() else {
                throw BenchError(.usage, function: "arguments", message: "\(name) needs a value")
            }
            values[name] = value
        }
    }

    /// The integer given for `name`, or `fallback` when absent.
    mutating func int(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        used.insert(name)
        guard let raw = values[name] else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            throw BenchError(.usage, function: "arguments",
                             message: "\(name) \(raw): expected a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// The integer given for `name`; a usage error when absent.
    mutating func requiredInt(_ name: String, range: ClosedRange<Int>) throws -> Int {
        guard values[name] != nil else {
            throw BenchError(.usage, function: "arguments", message: "\(name) is required")
        }
        return try int(name, default: 0, range: range)
    }

    /// Fails on options that no `int` call asked for (typos).
    func requireAllUsed() throws {
        let unknown = Set(values.keys).subtracting(used)
        guard unknown.isEmpty else {
            throw BenchError(.usage, function: "arguments",
                             message: "unknown option(s): \(unknown.sorted().joined(separator: ", "))")
        }
    }
}
