#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A number that identifies the calling thread for as long as it runs, never 0.
///
/// `Database` records the thread holding its lock so that a second call from that same thread (for instance
/// `database.execute` inside a `transaction` body) is reported as misuse instead of deadlocking on a lock that is
/// not recursive.
func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
