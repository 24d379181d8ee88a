// swift-tools-version:6.0
// KYC Suite: per-domain service executables talking over ZeroMQ with protobuf-c messages, behind an HTTP gateway.
import PackageDescription

/// One set of Swift settings for every Swift target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// A system-library target: a folder with `module.modulemap` and `shim.h`.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "KYCSuite",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "Gateway", targets: ["Gateway"]),
        .executable(name: "AppointmentService", targets: ["AppointmentService"]),
        .executable(name: "KYBService", targets: ["KYBService"]),
        .executable(name: "SigningService", targets: ["SigningService"]),
        .executable(name: "CaptureService", targets: ["CaptureService"]),
        .executable(name: "WebhookService", targets: ["WebhookService"]),
        .executable(name: "kycctl", targets: ["kycctl"]),
        .executable(name: "kyc-bench", targets: ["KYCBench"]),
    ],
    targets: [
        // C libraries from Debian 12 packages.
        systemLibrary("CZeroMQ", pkgConfig: "libzmq", apt: "libzmq3-dev"),
        systemLibrary("CProtobufC", pkgConfig: "libprotobuf-c", apt: "libprotobuf-c-dev"),
        systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: "libmicrohttpd-dev"),
        systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        systemLibrary("CSodium", pkgConfig: "libsodium", apt: "libsodium-dev"),
        systemLibrary("COpenSSL", pkgConfig: "libcrypto", apt: "libssl-dev"),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev"),
        systemLibrary("CExif", pkgConfig: "libexif", apt: "libexif-dev"),
        // protobuf-c code generated from proto/ by scripts/generate-proto (committed, never edited by hand).
        .target(name: "CKYCProto", dependencies: ["CProtobufC"]),
        // OpenCV 4.6 (C++) behind extern "C" functions; only the modules used are linked (fast start-up).
        .target(
            name: "COpenCVBridge",
            cxxSettings: [.unsafeFlags(["-std=c++17", "-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_objdetect"),
                .linkedLibrary("opencv_imgcodecs"), .linkedLibrary("stdc++"),
            ]
        ),
        // libphonenumber (C++) behind a C function, from Debian's libphonenumber-dev.
        .target(
            name: "CPhoneNumber",
            cxxSettings: [.unsafeFlags(["-std=c++17"])],
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]
        ),

        // Shared libraries: the logic lives here, reachable from tests without sockets.
        .target(name: "KYCCore", swiftSettings: swiftSettings),
        // SHA-256, HMAC and CSPRNG identifiers through libsodium: the one copy every service uses.
        .target(name: "KYCCrypto", dependencies: ["CSodium", "KYCCore"], swiftSettings: swiftSettings),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ", "KYCCore"], swiftSettings: swiftSettings),
        .target(name: "KYCMessages", dependencies: ["CKYCProto", "CProtobufC"], swiftSettings: swiftSettings),
        .target(name: "Messaging", dependencies: ["ZeroMQ", "KYCMessages", "KYCCore"], swiftSettings: swiftSettings),
        .target(name: "Storage", dependencies: ["CSQLite", "KYCCore"], swiftSettings: swiftSettings),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "KYCCore"], swiftSettings: swiftSettings),
        .target(name: "Credentials", dependencies: ["Storage", "CSodium", "KYCCrypto", "KYCCore"], swiftSettings: swiftSettings),
        .target(
            name: "GatewayKit",
            dependencies: ["HTTPServer", "Messaging", "ZeroMQ", "Credentials", "KYCMessages", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppointmentKit",
            dependencies: ["Messaging", "KYCMessages", "Storage", "Validation", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .target(name: "StackSupervisor", dependencies: ["KYCCore"], swiftSettings: swiftSettings),
        .target(name: "Validation", dependencies: ["CPhoneNumber"], swiftSettings: swiftSettings),
        // The frame-analysis engine (document and selfie), used by CaptureService, kycctl analyze and the benchmark.
        .target(
            name: "FrameAnalysis",
            dependencies: ["CTurboJPEG", "CExif", "COpenCVBridge", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CaptureKit",
            dependencies: ["FrameAnalysis", "Messaging", "KYCMessages", "KYCCrypto", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        // Webhooks: signing, the per-service transactional outbox and its relay (used by every service).
        .target(
            name: "Webhooks",
            dependencies: ["Messaging", "ZeroMQ", "KYCMessages", "Storage", "CSodium", "KYCCrypto", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        // WebhookService's logic: endpoints, deliveries with retries over libcurl, dead letters.
        .target(
            name: "WebhookKit",
            dependencies: ["Webhooks", "Messaging", "KYCMessages", "Storage", "CCurl", "CSodium", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SigningKit",
            dependencies: ["Webhooks", "Messaging", "KYCMessages", "Storage", "COpenSSL", "CSodium", "KYCCrypto", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KYBKit",
            dependencies: ["Messaging", "KYCMessages", "Storage", "Validation", "KYCCrypto", "KYCCore"],
            swiftSettings: swiftSettings
        ),

        // Thin executables: configuration, logging, storage and handlers wired together.
        .executableTarget(name: "Gateway", dependencies: ["GatewayKit", "KYCCore"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "AppointmentService",
            dependencies: ["AppointmentKit", "Messaging", "Storage", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KYBService",
            dependencies: ["KYBKit", "Messaging", "Storage", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "SigningService",
            dependencies: ["SigningKit", "Webhooks", "Messaging", "Storage", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "WebhookService",
            dependencies: ["WebhookKit", "Webhooks", "Messaging", "Storage", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CaptureService",
            dependencies: ["CaptureKit", "FrameAnalysis", "Messaging", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "kycctl",
            dependencies: ["StackSupervisor", "Credentials", "WebhookKit", "SigningKit", "FrameAnalysis", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KYCBench",
            dependencies: [
                "ZeroMQ", "Messaging", "KYCMessages", "HTTPServer", "GatewayKit", "AppointmentKit", "FrameAnalysis",
                "COpenCVBridge", "CTurboJPEG", "KYCCore",
            ],
            swiftSettings: swiftSettings
        ),

        // Tests.
        // What the test targets share: temporary directories that are always removed (scripts/run-tests checks).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "KYCCoreTests", dependencies: ["KYCCore"], swiftSettings: swiftSettings),
        .testTarget(name: "KYCCryptoTests", dependencies: ["KYCCrypto", "KYCCore"], swiftSettings: swiftSettings),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: swiftSettings),
        .testTarget(name: "KYCMessagesTests", dependencies: ["KYCMessages"], swiftSettings: swiftSettings),
        .testTarget(name: "MessagingTests", dependencies: ["Messaging", "ZeroMQ", "KYCMessages"], swiftSettings: swiftSettings),
        .testTarget(name: "StorageTests", dependencies: ["TestSupport", "Storage"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"], swiftSettings: swiftSettings),
        .testTarget(name: "CredentialsTests", dependencies: ["TestSupport", "Credentials", "Storage"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GatewayKitTests",
            dependencies: ["TestSupport", "GatewayKit", "Messaging", "KYCMessages", "Credentials"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "AppointmentKitTests", dependencies: ["TestSupport", "AppointmentKit", "KYCMessages", "Messaging", "Storage", "KYCCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ContractTests",
            dependencies: ["TestSupport", "KYCMessages", "Messaging", "ZeroMQ"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebhooksTests",
            dependencies: ["Webhooks", "Messaging", "ZeroMQ", "KYCMessages", "Storage", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebhookKitTests",
            dependencies: ["TestSupport", "WebhookKit", "Webhooks", "HTTPServer", "KYCMessages", "Messaging", "Storage", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SigningKitTests",
            dependencies: [
                "SigningKit", "Webhooks", "KYCMessages", "Messaging", "Storage", "KYCCrypto", "KYCCore", "COpenSSL",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FrameAnalysisTests",
            dependencies: ["FrameAnalysis", "KYCCore", "TestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CaptureKitTests",
            dependencies: ["TestSupport", "CaptureKit", "FrameAnalysis", "KYCMessages", "Messaging", "KYCCrypto", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ValidationTests", dependencies: ["Validation"], swiftSettings: swiftSettings),
        .testTarget(
            name: "KYBKitTests",
            dependencies: ["TestSupport", "KYBKit", "KYCMessages", "Messaging", "Storage", "KYCCrypto", "KYCCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "StackSupervisorTests", dependencies: ["TestSupport", "StackSupervisor"], swiftSettings: swiftSettings),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "KYCCore"], swiftSettings: swiftSettings),
    ]
)
