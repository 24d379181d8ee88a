import Glibc

/// Where one child instance is in its life, as `StackSupervisor.status()` reports it.
public enum ChildState: String, Sendable, Equatable {
    /// `start()` has not spawned it yet.
    case notStarted
    /// The process is alive.
    case running
    /// It exited on its own and waits out its back-off before the next start.
    case waitingToRestart
    /// Shutdown sent SIGTERM (or, after the grace, SIGKILL) and the process has not been reaped yet.
    case stopping
    /// Shutdown finished for this instance; it will not start again.
    case stopped
}

/// How a child process ended, decoded from `waitpid`'s status.
public enum ChildExit: Sendable, Equatable, CustomStringConvertible {
    /// It called `exit` with this status.
    case exited(code: Int32)
    /// A signal ended it.
    case signaled(signal: Int32)
    /// It was reaped by someone else (another `waitpid(-1)` in the process), so its status is unknown.
    case unknown

    /// Decodes a `waitpid` status word. The `WIFEXITED`/`WTERMSIG` macros are not imported into Swift, so this
    /// follows their Linux definitions: low 7 bits are the terminating signal, 0 meaning a normal exit.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited(code: (status >> 8) & 0xff)
        } else {
            self = .signaled(signal: signal)
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exit status \(code)"
        case .signaled(let signal): "signal \(signal) (\(Self.signalName(signal)))"
        case .unknown: "status unknown (reaped elsewhere)"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGSEGV: "SIGSEGV"
        case SIGPIPE: "SIGPIPE"
        case SIGTERM: "SIGTERM"
        default: "SIG\(signal)"
        }
    }
}

/// A snapshot of one supervised child instance.
public struct ChildStatus: Sendable, Equatable {
    /// `ChildSpec.name`.
    public let name: String
    /// 0-based index among the spec's `instances`.
    public let instance: Int
    /// The live process id, when there is a process.
    public let pid: Int32?
    /// How many times this instance was started again after it exited on its own.
    public let restarts: Int
    public let state: ChildState
    /// How the last process of this instance ended, if one has.
    public let lastExit: ChildExit?
}
