// `kycctl analyze`: the frame-analysis engine offline, for tuning thresholds (issue #5, in progress).
import Foundation

func analyze(_ arguments: ArraySlice<String>) throws {
    throw CommandLineError(description: "analyze is not available in this build yet")
}
