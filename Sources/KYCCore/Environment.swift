import Foundation

/// Reads typed configuration values from environment variables, collecting every problem instead of stopping at
/// the first, so that a misconfigured service says everything that is wrong at once.
public struct EnvironmentReader {
    public let values: [String: String]
    public private(set) var problems: [String] = []

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    public mutating func string(_ key: String, default fallback: String) -> String {
        guard let raw = values[key], !raw.isEmpty else { return fallback }
        return raw
    }

    public mutating func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) -> Int {
        guard let raw = values[key], !raw.isEmpty else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            problems.append("\(key)=\(raw): expected a whole number in \(range.lowerBound)...\(range.upperBound)")
            return fallback
        }
        return value
    }

    public mutating func logLevel(_ key: String = "LOG_LEVEL", default fallback: LogLevel = .info) -> LogLevel {
        guard let raw = values[key], !raw.isEmpty else { return fallback }
        guard let level = LogLevel(name: raw) else {
            problems.append("\(key)=\(raw): expected one of \(LogLevel.allCases.map(\.name).joined(separator: ", "))")
            return fallback
        }
        return level
    }

    /// Throws a `ConfigurationError` listing every problem seen so far.
    public func validate() throws {
        if !problems.isEmpty { throw ConfigurationError(problems: problems) }
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String { "invalid configuration:\n  " + problems.joined(separator: "\n  ") }
}

/// One documented environment variable, for `--help` output and the README table.
public struct ConfigurationKey: Sendable {
    public let name: String
    public let defaultValue: String
    public let summary: String
    public init(_ name: String, _ defaultValue: String, _ summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// Handles `--help`/`-h` for a service executable: prints what it is and its environment variables, then exits.
public func handleHelpFlag(executable: String, summary: String, keys: [ConfigurationKey],
                           arguments: [String] = CommandLine.arguments) {
    guard arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) else { return }
    var text = "\(executable): \(summary)\n\nConfiguration (environment variables):\n"
    let width = keys.map(\.name.count).max() ?? 0
    for key in keys {
        let padded = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
        text += "  \(padded)  \(key.summary) (default: \(key.defaultValue.isEmpty ? "unset" : key.defaultValue))\n"
    }
    print(text, terminator: "")
    exit(0)
}

/// Exits with a clear message when configuration is invalid.
public func exitOnConfigurationError(_ executable: String, _ body: () throws -> Void) {
    do { try body() } catch {
        FileHandle.standardError.write(Data("\(executable): \(error)\n".utf8))
        exit(64)
    }
}
