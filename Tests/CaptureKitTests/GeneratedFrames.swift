import Foundation

/// Labelled synthetic frames from tools/framegen (python3), generated once per test process into a temp directory.
struct GeneratedFrames: Sendable {
    struct Label: Decodable, Sendable {
        let file: String
        let mode: String
        let expected: String
        let width: Int
        let height: Int
        let corners: [[Double]]?
        let faces: [[Double]]
        let sharp: Bool
        let sequence: String?
    }

    private struct LabelsFile: Decodable {
        let frames: [Label]
    }

    let directory: URL
    let labels: [Label]

    func bytes(_ label: Label) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(label.file)))
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The accuracy set: every class (10 frames each), alternating 720p and 1080p, plus still and moving
    /// sequences; a fixed seed.
    static let accuracySet: Result<GeneratedFrames, GenerationError> = generate(
        seed: 20_250_501, countPerClass: 10, sizes: "1280x720,1920x1080", sequence: 6)

    /// Runs the generator; fails with its standard error when python3 or its packages are missing. `make test`
    /// generates the set before the test process starts (KYC_FRAMEGEN_DIR), so that a minute of generation does
    /// not hold one of the test process's few threads while end-to-end tests poll with deadlines.
    static func generate(seed: Int, countPerClass: Int, sizes: String, sequence: Int)
        -> Result<GeneratedFrames, GenerationError>
    {
        if let prepared = ProcessInfo.processInfo.environment["KYC_FRAMEGEN_DIR"], !prepared.isEmpty {
            return load(URL(fileURLWithPath: prepared))
        }
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("kyc-framegen-\(seed)-\(countPerClass)-\(getpid())")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("tools/framegen/framegen.py").path,
                             "--out", directory.path, "--seed", String(seed), "--count-per-class",
                             String(countPerClass), "--size", sizes, "--sequence", String(sequence),
                             // One core: the end-to-end tests running beside this poll with deadlines.
                             "--jobs", "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(GenerationError(description: "cannot run python3: \(error)"))
        }
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(GenerationError(description: "framegen failed (scripts/install-deps --test installs its "
                + "packages): \(String(decoding: stderr, as: UTF8.self))"))
        }
        return load(directory)
    }

    static func load(_ directory: URL) -> Result<GeneratedFrames, GenerationError> {
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("labels.json"))
            return .success(GeneratedFrames(directory: directory,
                                            labels: try JSONDecoder().decode(LabelsFile.self, from: data).frames))
        } catch {
            return .failure(GenerationError(description: "labels.json unreadable: \(error)"))
        }
    }
}

struct GenerationError: Error, CustomStringConvertible, Sendable {
    let description: String
}
