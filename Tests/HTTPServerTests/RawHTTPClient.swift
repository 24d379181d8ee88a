import Foundation

/// A minimal blocking HTTP/1.1 client over one TCP socket, written for these tests so they control exactly which
/// bytes go out and when the connection closes. Every read has a timeout, so a server that never answers fails the
/// test instead of hanging it.
final class RawHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private var fd: Int32
    private var pending: [UInt8] = []

    init(port: Int, readTimeoutSeconds: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Foundation.close(fd)
            throw Failure(description: "connect: errno \(code)")
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 {
            Foundation.close(fd)
            fd = -1
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: errno \(errno)")
            }
            offset += written
        }
    }

    /// Sends a request with the given method, target, headers and body (Content-Length added when there is one).
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws
        -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse()
    }

    /// Reads one response; the body framed by Content-Length or chunked encoding.
    func readResponse() throws -> Response {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body: [UInt8] = []
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            try fill(length)
            body = Array(pending[..<length])
            pending.removeFirst(length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                let lineEnd = try readUntil([13, 10])
                let size = Int(String(decoding: pending[..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                pending.removeFirst(lineEnd + 2)
                try fill(size + 2)
                body += pending[..<size]
                pending.removeFirst(size + 2)
                if size == 0 { break }
            }
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// True when the server closed the connection (a read returns end of file or a reset).
    func peerClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if pending.count >= marker.count {
                for start in 0...(pending.count - marker.count) where pending[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
            }
            try readMore()
        }
    }

    private func fill(_ count: Int) throws {
        while pending.count < count { try readMore() }
    }

    private func readMore() throws {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 {
            pending += buffer[..<count]
        } else if count == 0 {
            throw Failure(description: "connection closed by server")
        } else if errno != EINTR {
            throw Failure(description: "recv: errno \(errno)")
        }
    }
}
