// Owns the C memory behind a protobuf-c message while it is being packed. Every string, byte buffer, nested message
// and pointer array handed to a protobuf-c struct is allocated here and freed once, when the arena is released, so no
// C pointer outlives the `serialized()` call that built it.
import CProtobufC
import Foundation

final class CArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    init() {}

    deinit {
        for pointer in allocations { free(pointer) }
    }

    /// A NUL-terminated copy of `value`.
    func string(_ value: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(value.utf8)
        let raw = malloc(utf8.count + 1)!
        allocations.append(raw)
        let typed = raw.bindMemory(to: CChar.self, capacity: utf8.count + 1)
        utf8.withUnsafeBufferPointer { source in
            if let base = source.baseAddress {
                memcpy(typed, base, utf8.count)
            }
        }
        typed[utf8.count] = 0
        return typed
    }

    /// A protobuf-c binary field holding a copy of `value`.
    func bytes(_ value: [UInt8]) -> ProtobufCBinaryData {
        guard !value.isEmpty else { return ProtobufCBinaryData(len: 0, data: nil) }
        let raw = malloc(value.count)!
        allocations.append(raw)
        value.withUnsafeBufferPointer { source in _ = memcpy(raw, source.baseAddress!, value.count) }
        return ProtobufCBinaryData(len: value.count, data: raw.assumingMemoryBound(to: UInt8.self))
    }

    /// Zeroed storage for one C struct; the caller runs the generated `…__init` on it.
    func allocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        let raw = calloc(1, MemoryLayout<T>.stride)!
        allocations.append(raw)
        return raw.bindMemory(to: T.self, capacity: 1)
    }

    /// An array of `count` pointers, as protobuf-c uses for repeated fields.
    func pointerArray<T>(of type: T.Type, count: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<T>?>? {
        guard count > 0 else { return nil }
        let raw = calloc(count, MemoryLayout<UnsafeMutablePointer<T>?>.stride)!
        allocations.append(raw)
        return raw.bindMemory(to: UnsafeMutablePointer<T>?.self, capacity: count)
    }

    /// A repeated message field built from `values`.
    func messageArray<Value, C>(_ values: [Value], _ build: (Value) -> UnsafeMutablePointer<C>)
        -> UnsafeMutablePointer<UnsafeMutablePointer<C>?>? {
        guard let array = pointerArray(of: C.self, count: values.count) else { return nil }
        for (index, value) in values.enumerated() { array[index] = build(value) }
        return array
    }

    /// A repeated string field.
    func stringArray(_ values: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let array = pointerArray(of: CChar.self, count: values.count) else { return nil }
        for (index, value) in values.enumerated() { array[index] = string(value) }
        return array
    }
}

/// Helpers for reading unpacked protobuf-c structs into Swift values.
enum CRead {
    static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
    }

    static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
        guard data.len > 0, let base = data.data else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: data.len))
    }

    static func strings(_ count: Int, _ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard count > 0, let array else { return [] }
        return (0..<count).map { string(array[$0]) }
    }

    static func messages<C, S>(_ count: Int, _ array: UnsafeMutablePointer<UnsafeMutablePointer<C>?>?,
                               _ convert: (UnsafeMutablePointer<C>) -> S) -> [S] {
        guard count > 0, let array else { return [] }
        return (0..<count).compactMap { array[$0].map(convert) }
    }
}

/// Packs a protobuf-c message given its generated size and pack functions, checking that `pack` wrote exactly the
/// size `get_packed_size` promised.
func pack<T>(_ message: UnsafePointer<T>,
             size: (UnsafePointer<T>) -> Int,
             pack: (UnsafePointer<T>, UnsafeMutablePointer<UInt8>) -> Int) -> [UInt8] {
    let expected = size(message)
    guard expected > 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
        let written = pack(message, buffer.baseAddress!)
        precondition(written == expected, "protobuf-c packed \(written) bytes, promised \(expected)")
        initialized = written
    }
}

/// Unpacks bytes with a generated `…__unpack`, hands the C message to `convert`, and frees it with the generated
/// `…__free_unpacked` whatever happens. Malformed bytes become a `MessageDecodingError`.
func unpack<C, S>(_ bytes: [UInt8], as messageName: String,
                  unpack: (Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<C>?,
                  free: (UnsafeMutablePointer<C>) -> Void,
                  convert: (UnsafeMutablePointer<C>) throws -> S) throws -> S {
    let message = bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<C>? in
        // protobuf-c wants a non-null pointer even for an empty message.
        if buffer.isEmpty {
            var empty: UInt8 = 0
            return unpack(0, &empty)
        }
        return unpack(buffer.count, buffer.baseAddress)
    }
    guard let message else { throw MessageDecodingError(messageName: messageName, byteCount: bytes.count) }
    defer { free(message) }
    return try convert(message)
}
