import Foundation

/// An IPv4 or IPv6 socket address built from a host literal and port, kept as the C `sockaddr` that
/// libmicrohttpd's `MHD_OPTION_SOCK_ADDR` wants. Host names are refused on purpose: a server binds to an address,
/// and resolving names here would make start-up depend on DNS.
struct ListenAddress {
    enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    let storage: Storage

    init?(host: String, port: Int) {
        guard (0...65_535).contains(port) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = v4
            storage = .v4(address)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = v6
            storage = .v6(address)
            return
        }
        return nil
    }

    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// Calls `body` with a pointer to the C address, valid only inside `body`.
    func withSockaddrPointer<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        switch storage {
        case .v4(var address):
            return try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .v6(var address):
            return try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }

    /// The numeric text form of a peer address (`127.0.0.1`, `::1`); empty for families other than IP.
    static func numericHost(of address: UnsafePointer<sockaddr>) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var raw = v4.pointee.sin_addr
                guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else { return "" }
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var raw = v6.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return "" }
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        default:
            return ""
        }
    }
}
