// swift-tools-version:6.2
import PackageDescription

// The manifest is laid out so that a new SDK, transport or tool is a few lines:
// add a target below and, if users import it, a product at the end.

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// A library target in `Sources/`, with the package's Swift settings.
func library(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: swiftSettings)
}

/// An executable target, in `Sources/` unless `path` says otherwise, with the package's Swift settings.
func executable(_ name: String, _ dependencies: [Target.Dependency], path: String? = nil) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings)
}

/// A test target in `Tests/`, with the package's Swift settings.
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies + ["TestRunDefaults"], swiftSettings: swiftSettings)
}

// The other packages' products the targets use.
extension Target.Dependency {
    static var argumentParser: Self { .product(name: "ArgumentParser", package: "swift-argument-parser") }
    static var asyncHTTPClient: Self { .product(name: "AsyncHTTPClient", package: "async-http-client") }
    static var crypto: Self { .product(name: "Crypto", package: "swift-crypto") }
    static var httpTypes: Self { .product(name: "HTTPTypes", package: "swift-http-types") }
    static var httpTypesFoundation: Self { .product(name: "HTTPTypesFoundation", package: "swift-http-types") }
    static var hummingbird: Self { .product(name: "Hummingbird", package: "hummingbird") }
    static var logging: Self { .product(name: "Logging", package: "swift-log") }
    static var nioCore: Self { .product(name: "NIOCore", package: "swift-nio") }
    static var openAPIRuntime: Self { .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime") }
    static var nioConcurrencyHelpers: Self { .product(name: "NIOConcurrencyHelpers", package: "swift-nio") }
    static var postgresNIO: Self { .product(name: "PostgresNIO", package: "postgres-nio") }
    static var serviceLifecycle: Self { .product(name: "ServiceLifecycle", package: "swift-service-lifecycle") }
}

let package = Package(
    name: "swift-api-sdks",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Only the trait we use: with two, SwiftPM passes their -D flags in an order that changes
        // between `swift build` and `swift test`, so each rebuilt Hummingbird after the other.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        // MARK: HTTP layer (Foundation, swift-http-types and swift-crypto only)
        library("HTTPCore", [.httpTypes, .httpTypesFoundation, .crypto]),
        library("HTTPCoreTesting", ["HTTPCore"]),

        // MARK: Sign-in (OAuth 2: PKCE, code and device grants, discovery, token refresh)
        library("HTTPCoreOAuth", ["HTTPCore", .crypto, .httpTypes]),
        // The loopback redirect listener a command-line sign-in waits on (SwiftNIO, so apart).
        library(
            "HTTPCoreOAuthHummingbird",
            [
                "HTTPCoreOAuth", "HTTPCore", .hummingbird, .httpTypes, .nioCore, .logging, .serviceLifecycle,
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),

        // MARK: Webhooks (verify, dedupe and route deliveries; no server framework)
        library("HTTPCoreWebhooks", ["HTTPCore", .crypto, .httpTypes]),
        library("HTTPCoreWebhooksHummingbird", ["HTTPCoreWebhooks", .hummingbird, .nioCore]),

        // MARK: Shared state for a fleet of workers (PostgreSQL; HTTPCore and the SDKs stay free of it)
        library(
            "HTTPCorePostgres",
            ["HTTPCore", "HTTPCoreWebhooks", .postgresNIO, .logging, .nioCore, .serviceLifecycle]
        ),

        // MARK: Transports (each heavier HTTP stack in its own target)
        library(
            "HTTPCoreAsyncHTTPClient",
            [
                "HTTPCore", .asyncHTTPClient, .httpTypes, .nioCore,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),

        // MARK: swift-openapi-generator clients on HTTPCore (only these targets build OpenAPIRuntime)
        library("HTTPCoreOpenAPI", ["HTTPCore", .openAPIRuntime, .httpTypes]),
        // `openapi-example`: a client generated from part of Spec/Basecamp (Scripts/generate-openapi-client.sh)
        // run against the Basecamp sandbox through HTTPCoreOpenAPI.
        executable(
            "BasecampOpenAPIExample",
            ["HTTPCoreOpenAPI", "HTTPCore", "BasecampSandbox", "APISandbox", .openAPIRuntime, .httpTypes]
        ),

        // MARK: Observability (swift-log, swift-metrics, swift-distributed-tracing adapters for the hooks)
        library(
            "HTTPCoreObservability",
            [
                "HTTPCore", .logging,
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),

        // MARK: Sandbox (a real loopback server playing each API)
        library(
            "APISandbox",
            [
                "HTTPCore", .hummingbird, .httpTypes, .nioCore, .nioConcurrencyHelpers, .serviceLifecycle, .logging,
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        executable(
            "SandboxServer",
            [
                "APISandbox", "BasecampSandbox", "MarkbookSandbox", "MonashSandbox", "CLISupport", "HTTPCore",
                .argumentParser,
            ]
        ),

        // MARK: Basecamp SDK (generated from Spec/Basecamp by BasecampGenerator)
        library("Basecamp", ["HTTPCore", "HTTPCoreOAuth", "HTTPCoreWebhooks", .httpTypes]),
        executable("BasecampGenerator", ["HTTPCore", .product(name: "OpenAPIKit", package: "OpenAPIKit")]),
        library(
            "BasecampSandbox",
            [
                "APISandbox", "Basecamp", "HTTPCore", "HTTPCoreWebhooks",
                .crypto, .hummingbird, .httpTypes, .httpTypesFoundation,
            ]
        ),

        // MARK: Monash schedule SDK (Spec/MonashSchedule) and its sandbox
        library("MonashSchedule", ["HTTPCore"]),
        library("MonashSandbox", ["APISandbox", "HTTPCore", .hummingbird, .httpTypes]),

        // MARK: Markbook SDK (Spec/Markbook), its stateful sandbox and the `markbook` command
        library("Markbook", ["HTTPCore"]),
        library("MarkbookSandbox", ["APISandbox", "HTTPCore", .hummingbird, .httpTypes, .nioConcurrencyHelpers]),

        // MARK: Command-line tools (CLISupport holds the conventions every CLI follows)
        library(
            "CLISupport",
            [
                "HTTPCore", "HTTPCoreObservability", "APISandbox",
                // URLSession on Apple platforms; on Linux the tools send through SwiftNIO.
                .target(name: "HTTPCoreAsyncHTTPClient", condition: .when(platforms: [.linux])),
                .argumentParser, .logging, .hummingbird,
                // LocalHTTPServer: the foreground servers of `webhooks listen` and `calendar serve`.
                .nioCore, .serviceLifecycle,
            ]
        ),
        // Test helpers for the tools' own tests (not linked into any tool).
        library("CLISupportTesting", ["CLISupport", "APISandbox", "HTTPCore", .hummingbird]),
        // The PostgreSQL server the package's own tests use, and when they skip it.
        library("PostgresTesting", ["HTTPCorePostgres"]),
        executable(
            "MonashCLI",
            [
                "CLISupport", "MonashSchedule", "MonashSandbox", "HTTPCore", "APISandbox", .argumentParser,
                // `calendar serve`: a subscribable feed on Hummingbird, ETags from SHA-256.
                .hummingbird, .httpTypes, .crypto,
            ]
        ),
        executable(
            "BasecampCLI",
            [
                "CLISupport", "Basecamp", "BasecampSandbox", "HTTPCore", "HTTPCoreOAuth", "HTTPCoreOAuthHummingbird",
                "APISandbox", .argumentParser,
                // `basecamp webhooks listen`: a local receiver on Hummingbird.
                "HTTPCoreWebhooks", "HTTPCoreWebhooksHummingbird",
                .hummingbird, .httpTypes, .httpTypesFoundation,
                // BASECAMP_CREDENTIALS_URL: the sign-in's tokens shared through PostgreSQL.
                "HTTPCorePostgres",
            ]
        ),
        executable(
            "MarkbookCLI",
            ["CLISupport", "Markbook", "MarkbookSandbox", "HTTPCore", "APISandbox", .argumentParser]
        ),

        // MARK: The fleet proof (Scripts/fleet.sh): many processes on one account, coordinated through PostgreSQL
        executable(
            "BasecampFleet",
            [
                "Basecamp", "BasecampSandbox", "APISandbox", "CLISupport", "HTTPCore", "HTTPCoreOAuth",
                "HTTPCorePostgres",
                "HTTPCoreWebhooks", "HTTPCoreWebhooksHummingbird", .argumentParser, .hummingbird, .httpTypes, .logging,
                .serviceLifecycle,
            ]
        ),

        // MARK: Examples
        executable("HTTPCoreExample", ["HTTPCore", "APISandbox", .hummingbird]),

        // MARK: Tests
        tests(
            "MonashScheduleTests",
            ["MonashSchedule", "MonashSandbox", "APISandbox", "HTTPCore", "HTTPCoreTesting", .httpTypes]
        ),
        tests(
            "CLISupportTests",
            [
                "CLISupport", "CLISupportTesting", "HTTPCore", "HTTPCoreTesting", "APISandbox", .argumentParser,
                .hummingbird,
            ]
        ),
        tests(
            "MonashCLITests",
            [
                "MonashCLI", "CLISupport", "CLISupportTesting", "MonashSchedule", "HTTPCore", "HTTPCoreTesting",
                "APISandbox", .hummingbird,
            ]
        ),
        tests(
            "MarkbookTests",
            ["Markbook", "MarkbookSandbox", "APISandbox", "HTTPCore", "HTTPCoreTesting", .httpTypes]
        ),
        tests(
            "MarkbookCLITests",
            [
                "MarkbookCLI", "CLISupport", "CLISupportTesting", "Markbook", "MarkbookSandbox", "HTTPCore",
                "HTTPCoreTesting", "APISandbox",
            ]
        ),
        tests("HTTPCoreTests", ["HTTPCore", "HTTPCoreTesting", "APISandbox", .httpTypesFoundation]),
        // Linked into every test target: a plain `swift test` runs 16 test cases at a time.
        .target(name: "TestRunDefaults", path: "Tests/TestRunDefaults"),
        // One process of the multi-process refresh tests (BasecampSandboxTests, HTTPCorePostgresTests).
        executable(
            "OAuthRefreshProbe",
            ["HTTPCore", "HTTPCoreOAuth", "HTTPCorePostgres"],
            path: "Tests/OAuthRefreshProbe"
        ),
        tests("HTTPCoreWebhooksTests", ["HTTPCoreWebhooks", "HTTPCore", .crypto, .httpTypes]),
        tests(
            "HTTPCorePostgresTests",
            [
                "HTTPCorePostgres", "HTTPCore", "HTTPCoreTesting", "HTTPCoreWebhooks", "HTTPCoreOAuth", "APISandbox",
                "BasecampSandbox", "Basecamp", "CLISupportTesting", "PostgresTesting", .postgresNIO, .httpTypes,
            ]
        ),
        tests(
            "HTTPCoreWebhooksHummingbirdTests",
            [
                "HTTPCoreWebhooksHummingbird", "HTTPCoreWebhooks", "Basecamp", "APISandbox", "HTTPCore", .hummingbird,
                .httpTypes,
            ]
        ),
        tests("HTTPCoreOAuthTests", ["HTTPCoreOAuth", "HTTPCore", "HTTPCoreTesting", .httpTypes]),
        tests(
            "HTTPCoreOAuthHummingbirdTests",
            ["HTTPCoreOAuthHummingbird", "HTTPCoreOAuth", "HTTPCore", "HTTPCoreTesting"]
        ),
        tests(
            "HTTPCoreObservabilityTests",
            [
                "HTTPCoreObservability", "HTTPCore", "HTTPCoreTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        tests(
            "LoopbackTests",
            [
                "HTTPCore", "HTTPCoreTesting", "HTTPCoreAsyncHTTPClient", "APISandbox", "CLISupportTesting",
                .hummingbird, .asyncHTTPClient, .nioCore, .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        tests("APISandboxTests", ["APISandbox", .hummingbird]),
        tests("BasecampFleetTests", ["BasecampFleet", "Basecamp", "HTTPCore", "HTTPCorePostgres"]),
        tests(
            "BasecampSandboxTests",
            [
                "BasecampSandbox", "Basecamp", "APISandbox", "HTTPCore", "HTTPCoreTesting", "HTTPCoreOAuth",
                "HTTPCoreOAuthHummingbird", "CLISupport", "CLISupportTesting", "HTTPCoreWebhooks",
                "HTTPCoreWebhooksHummingbird", .hummingbird,
                .httpTypes,
            ]
        ),
        tests(
            "BasecampCLITests",
            [
                "BasecampCLI", "BasecampSandbox", "Basecamp", "CLISupport", "CLISupportTesting", "APISandbox",
                "HTTPCore", "HTTPCoreTesting",
                "HTTPCoreWebhooks", "HTTPCorePostgres", "PostgresTesting", .hummingbird, .httpTypes,
            ]
        ),
        tests(
            "BasecampTests",
            ["Basecamp", "HTTPCore", "HTTPCoreTesting", "HTTPCoreOAuth", "APISandbox", "HTTPCoreWebhooks", .httpTypes]
        ),
        tests(
            "HTTPCoreOpenAPITests",
            [
                "HTTPCoreOpenAPI", "BasecampOpenAPIExample", "HTTPCore", "HTTPCoreTesting", "HTTPCoreAsyncHTTPClient",
                "BasecampSandbox", "APISandbox", "CLISupportTesting", .openAPIRuntime, .httpTypes,
            ]
        ),
        // Reliability: chaos soak against the loopback sandbox (Scripts/soak.sh runs the full size).
        tests(
            "SoakTests",
            [
                "HTTPCore", "HTTPCoreAsyncHTTPClient", "HTTPCoreTesting", "APISandbox",
                "Markbook", "MarkbookSandbox", "Basecamp", "BasecampSandbox", .hummingbird, .httpTypes, .nioCore,
            ]
        ),
        // Reliability: every CLI with --verbose, scanned for the secrets it was given.
        tests(
            "SecretScanTests",
            [
                "MonashCLI", "MonashSandbox", "MarkbookCLI", "MarkbookSandbox", "BasecampCLI", "BasecampSandbox",
                "CLISupport", "CLISupportTesting", "HTTPCore", "HTTPCoreTesting", "APISandbox", .hummingbird,
            ]
        ),
    ]
)

package.products =
    [
        "Basecamp", "HTTPCore", "HTTPCoreTesting", "HTTPCoreOAuth", "HTTPCoreOAuthHummingbird", "HTTPCoreWebhooks",
        "HTTPCoreWebhooksHummingbird", "HTTPCorePostgres",
        "MonashSchedule", "HTTPCoreObservability", "HTTPCoreAsyncHTTPClient", "APISandbox", "BasecampSandbox",
        "Markbook", "HTTPCoreOpenAPI",
    ].map { .library(name: $0, targets: [$0]) }
    + [
        (name: "api-sandbox", target: "SandboxServer"),
        (name: "monash", target: "MonashCLI"),
        (name: "basecamp", target: "BasecampCLI"),
        (name: "markbook", target: "MarkbookCLI"),
        (name: "httpcore-example", target: "HTTPCoreExample"),
        (name: "openapi-example", target: "BasecampOpenAPIExample"),
        (name: "basecamp-fleet", target: "BasecampFleet"),
    ].map { .executable(name: $0.name, targets: [$0.target]) }
