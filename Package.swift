// swift-tools-version:6.0
import PackageDescription

/// sclm — a StoryContent-compatible content-sync manager for Linux.
///
/// The target graph (ARCHITECTURE.md, "The floors"): system-library targets at the bottom, domain libraries
/// in the middle, the command tree on top and a one-file executable. Lower targets never import higher ones.
let package = Package(
    name: "sclm",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sclm", targets: ["sclm"])
    ],
    targets: [
        // MARK: System libraries (apt: libsqlite3-dev libcurl4-openssl-dev libarchive-dev libssl-dev libisal-dev
        // libpng-dev pkg-config)
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // glibc's own posix_spawn extensions (no library to link).
        .systemLibrary(name: "CSpawn"),

        // MARK: Libraries
        .target(name: "SCLMCore", dependencies: ["CSpawn"]),
        .target(name: "SCLMStore", dependencies: ["SCLMCore", "CSQLite"]),
        .target(name: "SCLMHTTP", dependencies: ["SCLMCore", "CCurl"]),
        .target(name: "SCLMAuth", dependencies: ["SCLMCore", "SCLMHTTP", "SCLMStore"]),
        .target(name: "SCLMArchive", dependencies: ["SCLMCore", "CArchive", "CISAL", "CCrypto"]),
        .target(name: "SCLMSync", dependencies: ["SCLMCore", "SCLMHTTP", "SCLMAuth", "SCLMStore", "SCLMArchive"]),
        .target(name: "SCLMPolicy", dependencies: ["SCLMCore"]),
        .target(name: "SCLMImage", dependencies: ["SCLMCore", "CPNG"]),
        .target(name: "SCLMOSAM", dependencies: ["SCLMCore", "SCLMPolicy", "SCLMStore", "SCLMHTTP"]),
        .target(name: "SCLMAnalytics", dependencies: ["SCLMCore", "SCLMHTTP", "SCLMStore", "CCrypto"]),
        .target(name: "SCLMBridge", dependencies: ["SCLMCore"]),
        .target(name: "SCLMBrowser", dependencies: ["SCLMCore", "SCLMBridge"]),
        .target(
            name: "SCLMBridgeModules",
            dependencies: [
                "SCLMBridge", "SCLMStore", "SCLMHTTP", "SCLMCore", "SCLMPolicy", "SCLMOSAM", "SCLMArchive", "SCLMAuth",
            ]),
        .target(
            name: "SCLMPlayer",
            dependencies: [
                "SCLMCore", "SCLMStore", "SCLMArchive", "SCLMBridge", "SCLMBridgeModules", "SCLMBrowser", "CSystemd",
            ]),
        .target(
            name: "SCLMCommands",
            dependencies: [
                "SCLMCore", "SCLMStore", "SCLMHTTP", "SCLMAuth", "SCLMSync", "SCLMArchive", "SCLMAnalytics",
                "SCLMBridge", "SCLMBridgeModules", "SCLMBrowser", "SCLMPolicy", "SCLMOSAM", "SCLMPlayer", "SCLMImage",
            ]),

        // MARK: Fuzz targets (not a dependency of the executable: `make test` replays their corpus, `make fuzz`
        // links them into libFuzzer harnesses)
        .target(
            name: "SCLMFuzz",
            dependencies: [
                "SCLMCore", "SCLMArchive", "SCLMBridge", "SCLMBrowser", "SCLMHTTP", "SCLMSync", "SCLMImage",
            ]),

        // MARK: Executable
        .executableTarget(name: "sclm", dependencies: ["SCLMCommands"]),
        .executableTarget(name: "sclm-bench", dependencies: ["SCLMCore", "SCLMStore", "SCLMArchive", "SCLMImage"]),

        // MARK: Test support and tests
        .target(
            name: "SCLMTestSupport", dependencies: ["SCLMCore", "SCLMStore", "SCLMHTTP", "CArchive"],
            path: "Tests/SCLMTestSupport"),
        .testTarget(name: "SCLMCoreTests", dependencies: ["SCLMCore", "SCLMTestSupport"]),
        .testTarget(name: "SCLMStoreTests", dependencies: ["SCLMStore", "SCLMTestSupport", "CSQLite"]),
        .testTarget(name: "SCLMHTTPTests", dependencies: ["SCLMHTTP", "SCLMTestSupport"]),
        .testTarget(name: "SCLMAuthTests", dependencies: ["SCLMAuth", "SCLMTestSupport"]),
        .testTarget(name: "SCLMSyncTests", dependencies: ["SCLMSync", "SCLMTestSupport"]),
        .testTarget(
            name: "SCLMAnalyticsTests", dependencies: ["SCLMAnalytics", "SCLMStore", "SCLMHTTP", "SCLMTestSupport"]),
        .testTarget(
            name: "SCLMCommandsTests",
            dependencies: [
                "SCLMCommands", "SCLMAnalytics", "SCLMAuth", "SCLMBridge", "SCLMBrowser", "SCLMHTTP", "SCLMPlayer",
                "SCLMSync", "SCLMTestSupport",
            ]),
        .testTarget(
            name: "SCLMPlayerTests",
            dependencies: [
                "SCLMPlayer", "SCLMBridge", "SCLMBridgeModules", "SCLMBrowser", "SCLMArchive", "SCLMStore", "SCLMCore",
                "SCLMTestSupport",
            ]),
        .testTarget(name: "SCLMArchiveTests", dependencies: ["SCLMArchive", "SCLMCore", "SCLMTestSupport"]),
        .testTarget(name: "SCLMBridgeTests", dependencies: ["SCLMBridge", "SCLMTestSupport"]),
        .testTarget(name: "SCLMBrowserTests", dependencies: ["SCLMBrowser", "SCLMCore", "SCLMTestSupport"]),
        .testTarget(
            name: "SCLMBridgeModulesTests",
            dependencies: [
                "SCLMBridgeModules", "SCLMBridge", "SCLMStore", "SCLMHTTP", "SCLMOSAM", "SCLMPolicy", "SCLMArchive",
                "SCLMAnalytics", "SCLMTestSupport",
            ]),
        // Through the built binary, so below everything but the test support: the largest test target
        // compiles beside the sources instead of after them. The CLI tests that read the command catalog
        // itself have a target of their own.
        .testTarget(name: "SCLMEndToEndTests", dependencies: ["SCLMTestSupport", "SCLMCore", "SCLMStore", "SCLMHTTP"]),
        .testTarget(name: "SCLMCLITests", dependencies: ["sclm", "SCLMCommands", "SCLMCore", "SCLMTestSupport"]),
        .testTarget(name: "SCLMFuzzTests", dependencies: ["SCLMFuzz", "SCLMTestSupport"]),
        .testTarget(name: "SCLMPolicyTests", dependencies: ["SCLMPolicy", "SCLMTestSupport"]),
        .testTarget(name: "SCLMImageTests", dependencies: ["SCLMImage", "SCLMTestSupport"]),
        .testTarget(
            name: "SCLMOSAMTests", dependencies: ["SCLMOSAM", "SCLMPolicy", "SCLMStore", "SCLMHTTP", "SCLMTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .test, .executable].contains(target.type) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
