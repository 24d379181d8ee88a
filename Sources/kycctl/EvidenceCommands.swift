// `kycctl verify-evidence` and `kycctl verify-log`: offline checks of signing evidence (issue #6, in progress).
import Foundation

func verifyEvidence(_ arguments: ArraySlice<String>) throws {
    throw CommandLineError(description: "verify-evidence is not available in this build yet")
}

func verifyLog(_ arguments: ArraySlice<String>) throws {
    throw CommandLineError(description: "verify-log is not available in this build yet")
}
