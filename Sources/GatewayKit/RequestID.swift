import Credentials

/// Request ids: the client's `X-Request-Id` when it is a sane token, otherwise a fresh random one.
enum RequestID {
    static func accept(_ header: String?) -> String {
        if let header, (1...128).contains(header.utf8.count),
           header.utf8.allSatisfy({ byte in
               (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                   || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                   || byte == UInt8(ascii: ":")
           }) {
            return header
        }
        return SecretToken.identifier(prefix: "req_")
    }
}
