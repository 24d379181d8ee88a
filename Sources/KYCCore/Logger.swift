import Foundation
import Synchronization

/// Severity of a log event. `LOG_LEVEL` picks the lowest one written.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace = 0, debug, info, notice, warning, error, critical

    public init?(name: String) {
        switch name.lowercased() {
        case "trace": self = .trace
        case "debug": self = .debug
        case "info": self = .info
        case "notice": self = .notice
        case "warning", "warn": self = .warning
        case "error": self = .error
        case "critical": self = .critical
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where formatted log lines go. Tests capture lines in memory with `InMemoryLogSink`.
public protocol LogSink: Sendable {
    func write(_ line: String)
}

/// Writes each line to stderr with one `write(2)` call, so lines from different threads never interleave.
public struct StandardErrorLogSink: LogSink {
    public init() {}
    public func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }
}

/// Keeps lines in memory; for tests.
public final class InMemoryLogSink: LogSink {
    private let storage = Mutex<[String]>([])
    public init() {}
    public func write(_ line: String) { storage.withLock { $0.append(line) } }
    public var lines: [String] { storage.withLock { $0 } }
}

/// A structured logger: one line per event with time, level, service, message and `key=value` metadata
/// (dotted keys such as `request.id`). Values are quoted when they hold spaces or quotes.
public struct Logger: Sendable {
    public var service: String
    public var level: LogLevel
    public var metadata: [String: String]
    private let sink: any LogSink

    public init(service: String, level: LogLevel = .info, sink: any LogSink = StandardErrorLogSink(),
                metadata: [String: String] = [:]) {
        self.service = service
        self.level = level
        self.sink = sink
        self.metadata = metadata
    }

    /// A copy that adds `metadata` to every event.
    public func with(_ extra: [String: String]) -> Logger {
        var copy = self
        copy.metadata.merge(extra) { _, new in new }
        return copy
    }

    /// Whether events at `eventLevel` are written; check it before building costly metadata.
    public func isEnabled(_ eventLevel: LogLevel) -> Bool { eventLevel >= level }

    public func log(_ eventLevel: LogLevel, _ message: @autoclosure () -> String, _ extra: [String: String] = [:]) {
        guard eventLevel >= level else { return }
        var line = "\(Self.timestamp()) level=\(eventLevel.name) service=\(service) msg=\(Self.quote(message()))"
        let merged = metadata.merging(extra) { _, new in new }
        for key in merged.keys.sorted() {
            line += " \(key)=\(Self.quote(merged[key]!))"
        }
        sink.write(line)
    }

    public func trace(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.trace, m(), extra) }
    public func debug(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.debug, m(), extra) }
    public func info(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.info, m(), extra) }
    public func notice(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.notice, m(), extra) }
    public func warning(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.warning, m(), extra) }
    public func error(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.error, m(), extra) }
    public func critical(_ m: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.critical, m(), extra) }

    static func quote(_ value: String) -> String {
        if !value.isEmpty, !value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) {
            return value
        }
        var escaped = "\""
        for ch in value {
            switch ch {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(ch)
            }
        }
        return escaped + "\""
    }

    static func timestamp() -> String { UTCTimestamp.iso8601(milliseconds: WallClock.nowMilliseconds()) }
}
