import Foundation
import Glibc

/// Starts child processes with `posix_spawn` (glibc).
///
/// Each child gets a clean slate whatever the supervisor's own state: every signal back to its default action
/// (`ShutdownSignal.install()` sets SIGINT/SIGTERM to SIG_IGN in the supervisor, and ignored signals survive `exec`,
/// so without this children would shrug off SIGTERM) and an empty signal mask (threads from Dispatch block most
/// signals, and the mask survives `exec` too). Each child leads its own process group, so Ctrl-C in the terminal
/// reaches only the supervisor, which then stops children in order with one grace period. stdin is `/dev/null`;
/// stdout/stderr are inherited so log lines reach the terminal; other descriptors are closed.
///
/// When asked and available, the child is started through `setpriv --pdeathsig KILL` (util-linux), which sets
/// `PR_SET_PDEATHSIG` and then `exec`s the program in place (same pid). `posix_spawn` cannot run `prctl` between fork
/// and exec, and doing it by hand after `fork` in a multi-threaded Swift process is not async-signal-safe. The kernel
/// sends the signal when the *thread* that spawned the child exits, which is why the supervisor spawns only from its
/// own long-lived thread.
///
/// Used only on the supervisor's thread: the C attribute objects it owns never cross threads.
final class ProcessLauncher {
    private var attributes = posix_spawnattr_t()
    private var fileActions = posix_spawn_file_actions_t()
    private var isClosed = false
    /// `setpriv` path when children must die with the supervisor, nil otherwise.
    let parentDeathWrapper: String?

    /// Where util-linux installs `setpriv` (Debian: /usr/bin; /bin is the same directory on merged-/usr systems).
    static let setprivCandidates = ["/usr/bin/setpriv", "/bin/setpriv"]

    init(killChildrenIfSupervisorDies: Bool) throws {
        parentDeathWrapper = killChildrenIfSupervisorDies
            ? Self.setprivCandidates.first { access($0, X_OK) == 0 }
            : nil
        try SystemCall.checkReturnedError("posix_spawnattr_init") { posix_spawnattr_init(&attributes) }
        do {
            try SystemCall.checkReturnedError("posix_spawn_file_actions_init") {
                posix_spawn_file_actions_init(&fileActions)
            }
        } catch {
            posix_spawnattr_destroy(&attributes)
            throw error
        }
        do {
            try configure()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Frees the C attribute objects; safe to call more than once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        posix_spawn_file_actions_destroy(&fileActions)
        posix_spawnattr_destroy(&attributes)
    }

    private func configure() throws {
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        try SystemCall.checkReturnedError("posix_spawnattr_setsigdefault") {
            posix_spawnattr_setsigdefault(&attributes, &allSignals)
        }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        try SystemCall.checkReturnedError("posix_spawnattr_setsigmask") {
            posix_spawnattr_setsigmask(&attributes, &noSignals)
        }
        try SystemCall.checkReturnedError("posix_spawnattr_setpgroup") { posix_spawnattr_setpgroup(&attributes, 0) }
        let flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP
        try SystemCall.checkReturnedError("posix_spawnattr_setflags") {
            posix_spawnattr_setflags(&attributes, Int16(flags))
        }
        try SystemCall.checkReturnedError("posix_spawn_file_actions_addopen", path: "/dev/null") {
            posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let closeFrom = Self.addCloseFrom {
            try SystemCall.checkReturnedError("posix_spawn_file_actions_addclosefrom_np") { closeFrom(&fileActions, 3) }
        }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc 2.34+ has `posix_spawn_file_actions_addclosefrom_np`, but its header guards it behind `_GNU_SOURCE`, so
    /// Swift does not import it; look it up at run time and skip closing descriptors on older C libraries.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Starts `spec` and returns the child's pid. `environment` is the complete environment of the child.
    func spawn(_ spec: ChildSpec, environment: [String: String]) throws -> pid_t {
        precondition(!isClosed, "ProcessLauncher used after close()")
        var program = spec.executablePath
        var argv = [spec.executablePath] + spec.arguments
        if let wrapper = parentDeathWrapper {
            program = wrapper
            argv = [wrapper, "--pdeathsig", "KILL", "--"] + argv
        }
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        try Self.withCStringArray(argv) { argvPointer in
            try Self.withCStringArray(envp) { envpPointer in
                try SystemCall.checkReturnedError("posix_spawn", path: spec.executablePath) {
                    posix_spawn(&pid, program, &fileActions, &attributes, argvPointer, envpPointer)
                }
            }
        }
        return pid
    }

    /// A NULL-terminated C array of C strings, valid only inside `body`.
    private static func withCStringArray<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> Result
    ) throws -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return try pointers.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
