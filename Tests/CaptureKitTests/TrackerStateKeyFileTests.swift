import CaptureKit
import Dispatch
import Foundation
import KYCCore
import KYCCrypto
import Synchronization
import Testing
import TestSupport

/// Where the tracker state key comes from: KYC_CAPTURE_STATE_KEY, or `<KYC_DATA_DIR>/capture-state.key` created
/// once (mode 0600, atomically, so processes starting together agree) and reused.
@Suite("Tracker state key file")
struct TrackerStateKeyFileTests {
    /// A path (not yet created) inside a fresh temporary directory, and the removal of that directory.
    static func scratchDirectory() throws -> (path: String, remove: () -> Void) {
        let root = try TemporaryDirectory("kyc-seal-key")
        return (root.file("data"), root.remove)
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test func keyFileIsCreatedWithMode0600AndReused() throws {
        let (directory, remove) = try Self.scratchDirectory()
        defer { remove() }
        let path = TrackerStateKeyFile.path(inDirectory: directory)
        #expect(path.hasSuffix("/data/capture-state.key"))
        let key = try TrackerStateKeyFile.loadOrCreate(inDirectory: directory)
        #expect(key.count == 32)
        #expect(Self.mode(path) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == Hex.encode(key) + "\n")
        let again = try TrackerStateKeyFile.loadOrCreate(inDirectory: directory)
        #expect(again == key)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "an existing key is never rewritten")
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["capture-state.key"])
    }

    @Test func processesStartingTogetherAgreeOnOneKey() throws {
        let (directory, remove) = try Self.scratchDirectory()
        defer { remove() }
        let count = 16
        let results = Mutex<[Result<[UInt8], CaptureConfigurationError>]>([])
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            let result = Result { () throws(CaptureConfigurationError) -> [UInt8] in
                try TrackerStateKeyFile.loadOrCreate(inDirectory: directory)
            }
            results.withLock { $0.append(result) }
        }
        let keys = try results.withLock { try $0.map { try $0.get() } }
        #expect(keys.count == count)
        #expect(Set(keys.map(Hex.encode)).count == 1, "every caller got the same key")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["capture-state.key"])
        #expect(try TrackerStateKeyFile.loadOrCreate(inDirectory: directory) == keys[0])
    }

    @Test func keyFileReadableByOthersIsRefused() throws {
        let (directory, remove) = try Self.scratchDirectory()
        defer { remove() }
        _ = try TrackerStateKeyFile.loadOrCreate(inDirectory: directory)
        let path = TrackerStateKeyFile.path(inDirectory: directory)
        #expect(chmod(path, 0o644) == 0)
        #expect(throws: CaptureConfigurationError.self) { try TrackerStateKeyFile.loadOrCreate(inDirectory: directory) }
        #expect(Self.mode(path) == 0o644, "the file is reported, not silently changed")
    }

    @Test(arguments: ["", "not hex at all\n", String(repeating: "ab", count: 31) + "\n", "abc\n"])
    func keyFileWithoutAUsableKeyIsRefusedAndKept(_ contents: String) throws {
        let (directory, remove) = try Self.scratchDirectory()
        defer { remove() }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = TrackerStateKeyFile.path(inDirectory: directory)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8),
                                               attributes: [.posixPermissions: 0o600]))
        #expect(throws: CaptureConfigurationError.self) { try TrackerStateKeyFile.loadOrCreate(inDirectory: directory) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
    }

    @Test func configuredKeyIsUsedAndNoFileIsCreated() throws {
        let (directory, remove) = try Self.scratchDirectory()
        defer { remove() }
        let current = SecureRandom.bytes(32), previous = SecureRandom.bytes(48)
        let configuration = try CaptureServiceConfiguration.fromEnvironment(EnvironmentReader([
            "KYC_CAPTURE_STATE_KEY": Hex.encode(current).uppercased(),
            "KYC_CAPTURE_STATE_PREVIOUS_KEY": " " + Hex.encode(previous) + "\n",
            "KYC_CAPTURE_STATE_MAX_AGE_SECONDS": "45",
        ]))
        #expect(configuration.stateMaxAgeSeconds == 45)
        let keys = try configuration.stateKeys(dataDirectory: directory)
        #expect(keys.current == current)
        #expect(keys.previous == previous)
        #expect(!FileManager.default.fileExists(atPath: TrackerStateKeyFile.path(inDirectory: directory)))
    }

    @Test func withoutAConfiguredKeyTheDataDirectoryKeyIsUsed() throws {
        let (directory, remove) = try Self.scratchDirectory()
        defer { remove() }
        let configuration = try CaptureServiceConfiguration.fromEnvironment(EnvironmentReader([:]))
        #expect(configuration.stateKey == nil && configuration.previousStateKey == nil)
        #expect(configuration.stateMaxAgeSeconds == 30)
        let keys = try configuration.stateKeys(dataDirectory: directory)
        #expect(keys.current == (try TrackerStateKeyFile.loadOrCreate(inDirectory: directory)))
        #expect(keys.previous == nil)
    }

    @Test func invalidKeysAreConfigurationErrorsThatDoNotEchoTheSecret() {
        let short = Hex.encode(SecureRandom.bytes(31))
        let notHex = String(repeating: "zz", count: 32)
        do {
            _ = try CaptureServiceConfiguration.fromEnvironment(EnvironmentReader([
                "KYC_CAPTURE_STATE_KEY": short, "KYC_CAPTURE_STATE_PREVIOUS_KEY": notHex,
                "KYC_CAPTURE_STATE_MAX_AGE_SECONDS": "0",
            ]))
            Issue.record("invalid keys were accepted")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("KYC_CAPTURE_STATE_KEY"))
            #expect(text.contains("KYC_CAPTURE_STATE_PREVIOUS_KEY"))
            #expect(text.contains("KYC_CAPTURE_STATE_MAX_AGE_SECONDS"), "every problem at once: \(text)")
            #expect(!text.contains(short) && !text.contains(notHex))
        }
    }

    @Test func helpListsTheNewKeys() {
        let names = CaptureServiceConfiguration.keys.map(\.name)
        for name in ["KYC_CAPTURE_STATE_KEY", "KYC_CAPTURE_STATE_PREVIOUS_KEY", "KYC_CAPTURE_STATE_MAX_AGE_SECONDS"] {
            #expect(names.contains(name))
        }
    }
}
