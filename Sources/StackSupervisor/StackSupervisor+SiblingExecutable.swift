import Foundation
import Glibc

extension StackSupervisor {
    /// The path of executable `name` in the directory of the running executable (`/proc/self/exe`), where SwiftPM
    /// puts every product of a build (`.build/release/Gateway` beside `.build/release/kycctl`). Nil when there is no
    /// executable file of that name there, or when `name` is not a plain file name.
    public static func locateSiblingExecutable(_ name: String) -> String? {
        guard let ownPath = currentExecutablePath() else { return nil }
        return locateSiblingExecutable(name, nextTo: ownPath)
    }

    /// The path of executable `name` in the directory that holds `executablePath`.
    public static func locateSiblingExecutable(_ name: String, nextTo executablePath: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        let directory = (executablePath as NSString).deletingLastPathComponent
        let candidate = (directory as NSString).appendingPathComponent(name)
        var info = stat()
        guard stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 else {
            return nil
        }
        return candidate
    }

    /// Resolves `/proc/self/exe` (Linux); falls back to Foundation's idea of the main executable elsewhere.
    static func currentExecutablePath() -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                readlink("/proc/self/exe", $0, bytes.count)
            }
        }
        if length > 0 { return String(decoding: buffer[..<length], as: UTF8.self) }
        return Bundle.main.executablePath
    }
}
