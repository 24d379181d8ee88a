import CMicroHTTPD
import Synchronization

/// A libmicrohttpd connection pointer that may be handed to another thread.
///
/// `@unchecked Sendable` is safe because the pointer is never dereferenced in Swift: the only use off the
/// libmicrohttpd thread is `MHD_resume_connection`, which libmicrohttpd documents as callable from any thread, and
/// `SuspensionRegistry` (lock-guarded) guarantees the daemon and the suspended connection outlive that call.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Where one request's reply lands, whichever thread it comes from. Shared by the libmicrohttpd thread, the
/// `respond` closure given to the handler, and the server while it stops; the state machine behind a lock decides
/// who does what.
final class ReplySlot: Sendable {
    let connection: ConnectionHandle
    private let machine = Mutex(ReplyStateMachine())

    init(connection: OpaquePointer) {
        self.connection = ConnectionHandle(pointer: connection)
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    func handlerReturned() -> ReplyStateMachine.HandlerReturnedAction { machine.withLock { $0.handlerReturned() } }
    func suspendCompleted() -> ReplyStateMachine.SuspendCompletedAction { machine.withLock { $0.suspendCompleted() } }
    func suspensionRefused(fallback: HTTPResponse) -> HTTPResponse? {
        machine.withLock { $0.suspensionRefused(fallback: fallback) }
    }
    func respond(_ response: HTTPResponse) -> ReplyStateMachine.RespondAction {
        machine.withLock { $0.respond(response) }
    }
    func resumed() -> HTTPResponse? { machine.withLock { $0.resumed() } }
    func requestCompleted() { machine.withLock { $0.requestCompleted() } }
}
