// swift-tools-version:6.2
import PackageDescription

// HTTPCore next to raw URLSession and AsyncHTTPClient on the loopback sandbox (`httpcore-bench`).
// Kept out of the root package, as the fuzzers are, so that `swift build` of the SDKs never
// builds it; Scripts/bench.sh builds it in release and Scripts/ci-bench-quick.sh checks it in CI.

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// What the benchmarks measure and run on, from the root package.
let sdkProducts = [
    "HTTPCore", "HTTPCoreAsyncHTTPClient", "HTTPCoreObservability", "APISandbox", "Basecamp", "BasecampSandbox",
    "Markbook", "HTTPCoreOpenAPI", "HTTPCorePostgres",
]

let package = Package(
    name: "Benchmarks",
    // macOS 15 for Synchronization's Mutex; the benchmark runs on Linux and recent macOS only.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "httpcore-bench", targets: ["Benchmarks"])
    ],
    dependencies: [
        .package(name: "swift-api-sdks", path: "../.."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The generated client's own transports, the baselines of the OpenAPI row.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "Benchmarks",
            dependencies: sdkProducts.map { .product(name: $0, package: "swift-api-sdks") } + [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                "OpenAPIBenchClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        // The root package's generated example client (a link to its Generated folder) with one
        // public call, for the OpenAPI row.
        .target(
            name: "OpenAPIBenchClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks"], swiftSettings: swiftSettings),
    ]
)
