// The tracker state key kept in the data directory when KYC_CAPTURE_STATE_KEY is not set, so every CaptureService
// process of one stack (same KYC_DATA_DIR) seals with the same key without any configuration.
//
// Creation is atomic even when several processes start at once: each writes a complete random key to a temporary
// file of its own (O_EXCL, mode 0600, fsync), then `link(2)`s it to the final name, which fails with EEXIST for
// every process but the first; all of them then read the final file back, so they agree on the winner's key. A
// reader never sees a half-written key, because the final name only ever points at a complete file.
import Foundation
import KYCCore
import KYCCrypto

/// `<dataDirectory>/capture-state.key`: 64 hex digits and a newline, mode 0600, created on first use.
public enum TrackerStateKeyFile {
    public static let fileName = "capture-state.key"

    /// The path of the key file in `directory`.
    public static func path(inDirectory directory: String) -> String {
        (directory as NSString).appendingPathComponent(fileName)
    }

    /// The key in `directory`, created (random, 32 bytes) when the file does not exist yet. Refuses a file that is
    /// not a regular file, that group or others may read or write (a leaked key lets anyone forge states), or that
    /// does not hold a hex key of at least 32 bytes; it is never overwritten.
    public static func loadOrCreate(inDirectory directory: String) throws(CaptureConfigurationError) -> [UInt8] {
        let finalPath = path(inDirectory: directory)
        if access(finalPath, F_OK) != 0 {
            try create(finalPath, directory: directory)
        }
        return try readKey(finalPath)
    }

    private static func create(_ finalPath: String, directory: String) throws(CaptureConfigurationError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CaptureConfigurationError(description: "cannot create the data directory \(directory): \(error)")
        }
        let temporaryPath = finalPath + ".\(getpid()).\(Hex.encode(SecureRandom.bytes(6))).tmp"
        var text = Array((Hex.encode(SecureRandom.bytes(HMACSHA256.keyByteCount)) + "\n").utf8)
        defer { _ = text.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        let descriptor = try check(open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600),
                                   "open", temporaryPath)
        defer { unlink(temporaryPath) }
        do {
            // The umask can only remove bits from 0600; fchmod makes the mode exact whatever it is.
            _ = try check(fchmod(descriptor, 0o600), "fchmod", temporaryPath)
            try writeAll(text, to: descriptor, path: temporaryPath)
            _ = try check(fsync(descriptor), "fsync", temporaryPath)
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        // Another process may have linked its key first: then its key is the one, and ours is discarded.
        if link(temporaryPath, finalPath) != 0 && errno != EEXIST {
            throw CaptureConfigurationError(description: failure("link", finalPath, errno))
        }
    }

    private static func readKey(_ path: String) throws(CaptureConfigurationError) -> [UInt8] {
        let descriptor = try check(open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), "open", path)
        defer { close(descriptor) }
        var status = stat()
        _ = try check(fstat(descriptor, &status), "fstat", path)
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CaptureConfigurationError(description: "\(path) is not a regular file")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw CaptureConfigurationError(description: "\(path) may be read or written by group or others: "
                                            + "chmod 600 it (or delete it to make a new key)")
        }
        var buffer = [UInt8](repeating: 0, count: 4 * TrackerStateKeys.maximumByteCount)
        defer { _ = buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        var length = 0
        while length < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count < 0 && errno == EINTR { continue }
            let readCount = try check(count, "read", path)
            if readCount == 0 { break }
            length += readCount
        }
        guard let key = TrackerStateKeys.bytes(fromHex: String(decoding: buffer.prefix(length), as: UTF8.self)),
              key.count >= TrackerStateKeys.minimumByteCount, key.count <= TrackerStateKeys.maximumByteCount else {
            throw CaptureConfigurationError(description: "\(path) does not hold a hex key of "
                                            + "\(TrackerStateKeys.minimumByteCount)…"
                                            + "\(TrackerStateKeys.maximumByteCount) bytes")
        }
        return key
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
        throws(CaptureConfigurationError)
    {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            written += try check(count, "write", path)
        }
    }

    /// The one funnel for this file's C calls: a negative result becomes an error naming the call, path and errno.
    private static func check<Result: BinaryInteger>(_ result: Result, _ function: String, _ path: String)
        throws(CaptureConfigurationError) -> Result
    {
        guard result < 0 else { return result }
        throw CaptureConfigurationError(description: failure(function, path, errno))
    }

    private static func failure(_ function: String, _ path: String, _ code: Int32) -> String {
        "tracker state key file: \(function)(\(path)) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}
