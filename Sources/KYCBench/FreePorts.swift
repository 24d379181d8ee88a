// Finds free loopback TCP ports for the benchmark script: the kernel picks them (bind to port 0) while all sockets
// are held open, so the ports returned are distinct. They are closed before use, so another process could take one
// in between; on a benchmark machine that race is harmless and the script fails loudly if a bind fails.
import Foundation

enum FreePorts {
    /// `count` distinct ports that were free on 127.0.0.1 a moment ago.
    static func find(count: Int) throws -> [Int] {
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { Foundation.close(descriptor) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else {
                throw BenchError(.systemCall, function: "socket", message: "no socket", errorNumber: errno)
            }
            descriptors.append(descriptor)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
                }
            }
            guard bound else {
                throw BenchError(.systemCall, function: "bind/getsockname", message: "no free port", errorNumber: errno)
            }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
