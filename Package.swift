// swift-tools-version:6.2
import PackageDescription

// The manifest is laid out so that a new SDK, transport or tool is a few lines:
// add a target below and, if users import it, a product at the end.

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "swift-api-sdks",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
    ],
    targets: [
        // MARK: HTTP layer (Foundation, swift-http-types and swift-crypto only)
        .target(
            name: "HTTPCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "HTTPCoreTesting", dependencies: ["HTTPCore"], swiftSettings: swiftSettings),

        // MARK: Sign-in (OAuth 2: PKCE, code and device grants, discovery, token refresh)
        .target(
            name: "HTTPCoreOAuth",
            dependencies: [
                "HTTPCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Webhooks (verify, dedupe and route deliveries; no server framework)
        .target(
            name: "HTTPCoreWebhooks",
            dependencies: [
                "HTTPCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "HTTPCoreWebhooksHummingbird",
            dependencies: [
                "HTTPCoreWebhooks",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Transports (each heavier HTTP stack in its own target)
        .target(
            name: "HTTPCoreAsyncHTTPClient",
            dependencies: [
                "HTTPCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Observability (swift-log, swift-metrics, swift-distributed-tracing adapters for the hooks)
        .target(
            name: "HTTPCoreObservability",
            dependencies: [
                "HTTPCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Sandbox (a real loopback server playing each API)
        .target(
            name: "APISandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "SandboxServer",
            dependencies: [
                "APISandbox", "BasecampSandbox", "MarkbookSandbox", "MonashSandbox", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Basecamp SDK (generated from Spec/Basecamp by BasecampGenerator)
        .target(
            name: "Basecamp",
            dependencies: [
                "HTTPCore", "HTTPCoreOAuth", "HTTPCoreWebhooks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "BasecampGenerator",
            dependencies: [.product(name: "OpenAPIKit", package: "OpenAPIKit")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "BasecampSandbox",
            dependencies: [
                "APISandbox", "Basecamp", "HTTPCore", "HTTPCoreWebhooks",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Monash schedule SDK (Spec/MonashSchedule) and its sandbox
        .target(name: "MonashSchedule", dependencies: ["HTTPCore"], swiftSettings: swiftSettings),
        .target(
            name: "MonashSandbox",
            dependencies: [
                "APISandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Markbook SDK (Spec/Markbook), its stateful sandbox and the `markbook` command
        .target(name: "Markbook", dependencies: ["HTTPCore"], swiftSettings: swiftSettings),
        .target(
            name: "MarkbookSandbox",
            dependencies: [
                "APISandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Command-line tools (CLISupport holds the conventions every CLI follows)
        .target(
            name: "CLISupport",
            dependencies: [
                "HTTPCore",
                "HTTPCoreObservability",
                "APISandbox",
                // URLSession on Apple platforms; on Linux the tools send through SwiftNIO.
                .target(name: "HTTPCoreAsyncHTTPClient", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "MonashCLI",
            dependencies: [
                "CLISupport",
                "MonashSchedule",
                "MonashSandbox",
                "HTTPCore",
                "APISandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "BasecampCLI",
            dependencies: [
                "CLISupport", "Basecamp", "BasecampSandbox", "HTTPCore", "HTTPCoreOAuth", "APISandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `basecamp webhooks listen`: a local receiver on Hummingbird.
                "HTTPCoreWebhooks", "HTTPCoreWebhooksHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "MarkbookCLI",
            dependencies: [
                "CLISupport",
                "Markbook",
                "MarkbookSandbox",
                "HTTPCore",
                "APISandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Examples
        .executableTarget(
            name: "HTTPCoreExample",
            dependencies: ["HTTPCore", "APISandbox", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "MonashScheduleTests",
            dependencies: [
                "MonashSchedule",
                "MonashSandbox",
                "APISandbox",
                "HTTPCore",
                "HTTPCoreTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLISupportTests",
            dependencies: [
                "CLISupport",
                "HTTPCore",
                "HTTPCoreTesting",
                "APISandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MonashCLITests",
            dependencies: [
                "MonashCLI",
                "CLISupport",
                "MonashSchedule",
                "HTTPCore",
                "HTTPCoreTesting",
                "APISandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MarkbookTests",
            dependencies: [
                "Markbook",
                "MarkbookSandbox",
                "APISandbox",
                "HTTPCore",
                "HTTPCoreTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MarkbookCLITests",
            dependencies: [
                "MarkbookCLI",
                "CLISupport",
                "Markbook",
                "MarkbookSandbox",
                "HTTPCore",
                "HTTPCoreTesting",
                "APISandbox",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPCoreTests",
            dependencies: [
                "HTTPCore",
                "HTTPCoreTesting",
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // One process of the two-process refresh test (BasecampSandboxTests runs two).
        .executableTarget(
            name: "OAuthRefreshProbe",
            dependencies: ["HTTPCore", "HTTPCoreOAuth"],
            path: "Tests/OAuthRefreshProbe",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPCoreWebhooksTests",
            dependencies: [
                "HTTPCoreWebhooks",
                "HTTPCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPCoreWebhooksHummingbirdTests",
            dependencies: [
                "HTTPCoreWebhooksHummingbird", "HTTPCoreWebhooks", "Basecamp", "APISandbox", "HTTPCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPCoreOAuthTests",
            dependencies: [
                "HTTPCoreOAuth",
                "HTTPCore",
                "HTTPCoreTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPCoreObservabilityTests",
            dependencies: [
                "HTTPCoreObservability",
                "HTTPCore",
                "HTTPCoreTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LoopbackTests",
            dependencies: [
                "HTTPCore",
                "HTTPCoreTesting",
                "HTTPCoreAsyncHTTPClient",
                "APISandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APISandboxTests",
            dependencies: ["APISandbox", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BasecampSandboxTests",
            dependencies: [
                "BasecampSandbox", "Basecamp", "APISandbox", "HTTPCore", "HTTPCoreTesting", "HTTPCoreOAuth",
                "CLISupport", "HTTPCoreWebhooks", "HTTPCoreWebhooksHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BasecampCLITests",
            dependencies: [
                "BasecampCLI", "BasecampSandbox", "Basecamp", "CLISupport", "APISandbox", "HTTPCore", "HTTPCoreTesting",
                "HTTPCoreWebhooks",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BasecampTests",
            dependencies: [
                "Basecamp", "HTTPCore", "HTTPCoreTesting", "HTTPCoreOAuth", "APISandbox", "HTTPCoreWebhooks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // Reliability: chaos soak against the loopback sandbox (Scripts/soak.sh runs the full size).
        .testTarget(
            name: "SoakTests",
            dependencies: [
                "HTTPCore", "HTTPCoreAsyncHTTPClient", "HTTPCoreTesting", "APISandbox",
                "Markbook", "MarkbookSandbox", "Basecamp", "BasecampSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Reliability: every CLI with --verbose, scanned for the secrets it was given.
        .testTarget(
            name: "SecretScanTests",
            dependencies: [
                "MonashCLI", "MonashSandbox", "MarkbookCLI", "MarkbookSandbox", "BasecampCLI", "BasecampSandbox",
                "CLISupport", "HTTPCore", "APISandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

package.products = [
    .library(name: "Basecamp", targets: ["Basecamp"]),
    .library(name: "HTTPCore", targets: ["HTTPCore"]),
    .library(name: "HTTPCoreTesting", targets: ["HTTPCoreTesting"]),
    .library(name: "HTTPCoreOAuth", targets: ["HTTPCoreOAuth"]),
    .library(name: "HTTPCoreWebhooks", targets: ["HTTPCoreWebhooks"]),
    .library(name: "HTTPCoreWebhooksHummingbird", targets: ["HTTPCoreWebhooksHummingbird"]),
    .library(name: "MonashSchedule", targets: ["MonashSchedule"]),
    .library(name: "HTTPCoreObservability", targets: ["HTTPCoreObservability"]),
    .library(name: "HTTPCoreAsyncHTTPClient", targets: ["HTTPCoreAsyncHTTPClient"]),
    .library(name: "APISandbox", targets: ["APISandbox"]),
    .library(name: "BasecampSandbox", targets: ["BasecampSandbox"]),
    .executable(name: "api-sandbox", targets: ["SandboxServer"]),
    .executable(name: "monash", targets: ["MonashCLI"]),
    .executable(name: "basecamp", targets: ["BasecampCLI"]),
    .library(name: "Markbook", targets: ["Markbook"]),
    .executable(name: "markbook", targets: ["MarkbookCLI"]),
    .executable(name: "httpcore-example", targets: ["HTTPCoreExample"]),
]
