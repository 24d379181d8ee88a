import KYCCore

/// The request target (`/path?query`) split and percent-decoded. Pure, so that every odd input can be tested
/// without a socket; malformed escapes are kept as written rather than rejected, because a handler can still
/// answer 404 or 400 for a path it does not know, and the server must never fail on client bytes.
struct RequestTarget: Equatable {
    var path: String
    var rawQuery: String
    var queryItems: [QueryItem]

    struct QueryItem: Equatable {
        var name: String
        var value: String
    }

    init(raw: String) {
        let bytes = Array(raw.utf8)
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[..<(queryStart ?? bytes.endIndex)]
        path = Self.percentDecoded(pathBytes, plusAsSpace: false)
        if pathBytes.isEmpty { path = "/" }
        guard let queryStart else {
            rawQuery = ""
            queryItems = []
            return
        }
        var queryBytes = bytes[(queryStart + 1)...]
        if let fragment = queryBytes.firstIndex(of: UInt8(ascii: "#")) {
            queryBytes = queryBytes[..<fragment]
        }
        rawQuery = String(decoding: queryBytes, as: UTF8.self)
        queryItems = queryBytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                return QueryItem(name: Self.percentDecoded(pair[..<equals], plusAsSpace: true),
                                 value: Self.percentDecoded(pair[(equals + 1)...], plusAsSpace: true))
            }
            return QueryItem(name: Self.percentDecoded(pair, plusAsSpace: true), value: "")
        }
    }

    /// Decodes `%XX` escapes (and `+` when `plusAsSpace`); invalid UTF-8 becomes U+FFFD.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
               let high = Hex.value(of: bytes[index + 1]), let low = Hex.value(of: bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
