// KYBService: corporate onboarding (KYB) — businesses, staff, documents and document categories, served to the
// gateway's broker.
import Foundation
import KYBKit
import KYCCore
import Messaging
import Storage

handleHelpFlag(executable: "KYBService", summary: "corporate onboarding (KYB): businesses, staff, documents",
               keys: ServiceProcessConfiguration.keys + KYBLimits.keys)
var limits = KYBLimits()
exitOnConfigurationError("KYBService") { limits = try KYBLimits.fromEnvironment() }
let kybLimits = limits

/// For the end-to-end test that proves an upload interrupted by a crash leaves nothing behind: when
/// `KYC_KYB_TEST_EXIT_MID_UPLOAD=1`, the process exits abruptly inside the upload transaction after the first
/// document row is written. Never set it in production.
let exitMidUpload = ProcessInfo.processInfo.environment["KYC_KYB_TEST_EXIT_MID_UPLOAD"] == "1"

ServiceProcess.run(executable: "KYBService", service: KYBHandlers.service,
                   summary: "corporate onboarding (KYB): businesses, staff, documents") { configuration, logger in
    let database = try Database(path: configuration.databasePath("kyb"))
    let store = try KYBStore(database: database, midUploadHook: exitMidUpload ? KYBStore.exitProcessMidUpload : nil)
    return KYBHandlers(store: store, limits: kybLimits).router(version: KYCSuiteVersion.current, logger: logger)
}
