// `kycctl webhook …`: per-tenant webhook endpoints (issue #6, in progress).
import Foundation

func webhook(_ arguments: ArraySlice<String>) throws {
    throw CommandLineError(description: "webhook commands are not available in this build yet")
}
