// A self-pipe that lets any thread wake a thread blocked in `zmq_poll`, so work can be handed to a socket-owning
// thread without the socket ever crossing threads. (A pipe rather than eventfd: Glibc's Swift overlay does not
// import eventfd, and a non-blocking pipe behaves the same for this purpose.)
import Foundation
import Synchronization

/// `notify()` from any thread makes `fileDescriptor` readable until `drain()`.
final class EventNotifier: Sendable {
    private struct Ends { var read: Int32; var write: Int32 }
    /// Both ends, or -1 once closed; the lock makes `notify` after `close` a no-op instead of a write to a
    /// recycled descriptor.
    private let ends: Mutex<Ends>
    /// The descriptor to poll for readability (valid until `close`).
    let fileDescriptor: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        ends = Mutex(Ends(read: fds[0], write: fds[1]))
        fileDescriptor = fds[0]
    }

    deinit { close() }

    /// Makes the descriptor readable (wakes pollers). A full pipe is already readable, so EAGAIN is fine.
    func notify() {
        ends.withLock { ends in
            guard ends.write >= 0 else { return }
            var byte: UInt8 = 1
            while write(ends.write, &byte, 1) < 0 && errno == EINTR {}
        }
    }

    /// Makes the descriptor not readable again.
    func drain() {
        ends.withLock { ends in
            guard ends.read >= 0 else { return }
            var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            while true {
                let count = read(ends.read, &buffer, MemoryLayout.size(ofValue: buffer))
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                return
            }
        }
    }

    /// Closes both ends once.
    func close() {
        ends.withLock { ends in
            guard ends.read >= 0 else { return }
            Foundation.close(ends.read)
            Foundation.close(ends.write)
            ends = Ends(read: -1, write: -1)
        }
    }
}
