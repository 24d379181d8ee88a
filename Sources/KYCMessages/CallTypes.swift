// Swift values for the call-type messages of proto/appointment.proto.
import CKYCProto
import CProtobufC

public struct ListCallTypesRequest: WireMessage, Equatable {
    /// "KYC" (the default when empty) or "KYB".
    public var handler: String

    public init(handler: String = "") { self.handler = handler }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListCallTypesRequest.self)
        kyc__v1__list_call_types_request__init(message)
        message.pointee.handler = arena.string(handler)
        return pack(message, size: { kyc__v1__list_call_types_request__get_packed_size($0) },
                    pack: { kyc__v1__list_call_types_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListCallTypesRequest",
                          unpack: { kyc__v1__list_call_types_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_call_types_request__free_unpacked($0, nil) }) { message in
            ListCallTypesRequest(handler: CRead.string(message.pointee.handler))
        }
    }
}

public struct CallType: Sendable, Equatable {
    public var code: String
    public var name: String
    public var handler: String

    public init(code: String, name: String, handler: String) {
        self.code = code
        self.name = name
        self.handler = handler
    }
}

public struct ListCallTypesReply: WireMessage, Equatable {
    /// In display order.
    public var callTypes: [CallType]

    public init(callTypes: [CallType]) { self.callTypes = callTypes }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListCallTypesReply.self)
        kyc__v1__list_call_types_reply__init(message)
        let array = arena.pointerArray(of: Kyc__V1__CallType.self, count: callTypes.count)
        for (index, callType) in callTypes.enumerated() {
            let item = arena.allocate(Kyc__V1__CallType.self)
            kyc__v1__call_type__init(item)
            item.pointee.code = arena.string(callType.code)
            item.pointee.name = arena.string(callType.name)
            item.pointee.handler = arena.string(callType.handler)
            array![index] = item
        }
        message.pointee.n_call_types = callTypes.count
        message.pointee.call_types = array
        return pack(message, size: { kyc__v1__list_call_types_reply__get_packed_size($0) },
                    pack: { kyc__v1__list_call_types_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListCallTypesReply",
                          unpack: { kyc__v1__list_call_types_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_call_types_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return ListCallTypesReply(callTypes: CRead.messages(c.n_call_types, c.call_types) { item in
                CallType(code: CRead.string(item.pointee.code), name: CRead.string(item.pointee.name),
                         handler: CRead.string(item.pointee.handler))
            })
        }
    }
}
