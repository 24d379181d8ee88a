// The frames in Fixtures/ (Fixtures/README.md says where each comes from and what it once did wrong).
import Foundation

/// The bytes of `Fixtures/<file>` beside this file.
func fixtureBytes(_ file: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(file)")
    return Array(try Data(contentsOf: url))
}
