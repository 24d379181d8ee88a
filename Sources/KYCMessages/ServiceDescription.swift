// Swift values for proto/service.proto: the Describe operation every worker answers.
import CKYCProto
import CProtobufC

public struct DescribeRequest: WireMessage, Equatable {
    public init() {}

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__DescribeRequest.self)
        kyc__v1__describe_request__init(message)
        return pack(message, size: { kyc__v1__describe_request__get_packed_size($0) },
                    pack: { kyc__v1__describe_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "DescribeRequest",
                          unpack: { kyc__v1__describe_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__describe_request__free_unpacked($0, nil) }) { _ in DescribeRequest() }
    }
}

public struct DescribeReply: WireMessage, Equatable {
    public var service: String
    public var version: String
    public var instance: String
    public var methods: [String]
    public var startedUnixMs: Int64

    public init(service: String, version: String, instance: String, methods: [String], startedUnixMs: Int64) {
        self.service = service
        self.version = version
        self.instance = instance
        self.methods = methods
        self.startedUnixMs = startedUnixMs
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__DescribeReply.self)
        kyc__v1__describe_reply__init(message)
        message.pointee.service = arena.string(service)
        message.pointee.version = arena.string(version)
        message.pointee.instance = arena.string(instance)
        message.pointee.n_methods = methods.count
        message.pointee.methods = arena.stringArray(methods)
        message.pointee.started_unix_ms = startedUnixMs
        return pack(message, size: { kyc__v1__describe_reply__get_packed_size($0) },
                    pack: { kyc__v1__describe_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "DescribeReply",
                          unpack: { kyc__v1__describe_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__describe_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return DescribeReply(service: CRead.string(c.service), version: CRead.string(c.version),
                                 instance: CRead.string(c.instance), methods: CRead.strings(c.n_methods, c.methods),
                                 startedUnixMs: c.started_unix_ms)
        }
    }
}
