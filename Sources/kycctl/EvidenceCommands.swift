// `kycctl verify-evidence` and `kycctl verify-log`: offline checks of signing evidence (issue #6). The logic lives in
// SigningKit (`EvidenceBundle.verify`, `EvidenceLog.verify`); this file parses arguments and prints the outcome.
// Exit status: 0 verified, 1 verification failed, 2 usage error or unreadable input.
import Foundation
import SigningKit
import Storage

/// `kycctl verify-evidence BUNDLE.json [--document ID=FILE …] [--platform-key BASE64_SPKI]`
func verifyEvidence(_ arguments: ArraySlice<String>) throws {
    var bundlePath: String?
    var documents: [String: [UInt8]] = [:]
    var trustedKey: [UInt8]?
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--document":
            guard let value = iterator.next(), let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw CommandLineError(description: "--document needs ID=FILE")
            }
            let path = String(value[value.index(after: equals)...])
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandLineError(description: "cannot read \(path)")
            }
            documents[String(value[..<equals])] = Array(data)
        case "--platform-key":
            guard let value = iterator.next(), let key = SigningCrypto.decodeBase64(value) else {
                throw CommandLineError(description: "--platform-key needs the base64 public key of GET /v1/signing/platform-key")
            }
            trustedKey = key
        default:
            guard bundlePath == nil, !argument.hasPrefix("--") else {
                throw CommandLineError(description: "unexpected argument '\(argument)'")
            }
            bundlePath = argument
        }
    }
    guard let bundlePath else { throw CommandLineError(description: "verify-evidence needs BUNDLE.json") }
    guard let bytes = FileManager.default.contents(atPath: bundlePath) else {
        throw CommandLineError(description: "cannot read \(bundlePath)")
    }
    let report = EvidenceBundle.verify(Array(bytes), documents: documents, trustedSealKey: trustedKey)
    for check in report.checks {
        print("\(check.passed ? "ok    " : "FAILED") \(check.name)\(check.passed || check.detail.isEmpty ? "" : ": \(check.detail)")")
    }
    for note in report.notes { print("note   \(note)") }
    print(report.isValid ? "evidence verified" : "evidence NOT verified: \(report.failures.count) check(s) failed")
    fflush(nil)
    exit(report.isValid ? 0 : 1)
}

/// `kycctl verify-log [--tenant ID]`: reads `signing.sqlite` under KYC_DATA_DIR.
func verifyLog(_ arguments: ArraySlice<String>) throws {
    let options = try Options(arguments, switches: [])
    guard options.positional.isEmpty, Set(options.values.keys).isSubset(of: ["tenant"]) else {
        throw CommandLineError(description: "usage: kycctl verify-log [--tenant ID]")
    }
    let directory = ProcessInfo.processInfo.environment["KYC_DATA_DIR"] ?? "./data"
    let path = (directory as NSString).appendingPathComponent("signing.sqlite")
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandLineError(description: "no signing database at \(path) (set KYC_DATA_DIR)")
    }
    let report: EvidenceLog.Report
    do {
        report = try EvidenceLog.verify(try Database(path: path), tenant: options.values["tenant"])
    } catch {
        throw CommandLineError(description: "cannot read \(path): \(error)")
    }
    for broken in report.breaks { print("BROKEN \(broken)") }
    print("\(report.tenants.count) tenant(s), \(report.entries) entries, \(report.sealedBundlesChecked) sealed bundle(s) "
        + "cross-checked: \(report.isIntact ? "log intact" : "log TAMPERED")")
    fflush(nil)
    exit(report.isIntact ? 0 : 1)
}
