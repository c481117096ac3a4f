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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // MARK: HTTP layer (Foundation + swift-http-types only)
        .target(
            name: "HTTPCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "HTTPCoreTesting", dependencies: ["HTTPCore"], swiftSettings: swiftSettings),

        // MARK: Sandbox (a real loopback server playing each API)
        .target(
            name: "APISandbox",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "SandboxServer",
            dependencies: [
                "APISandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Examples
        .executableTarget(
            name: "HTTPCoreExample",
            dependencies: ["HTTPCore", "APISandbox"],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "HTTPCoreTests",
            dependencies: ["HTTPCore", "HTTPCoreTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LoopbackTests",
            dependencies: ["HTTPCore", "HTTPCoreTesting", "APISandbox"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APISandboxTests",
            dependencies: ["APISandbox"],
            swiftSettings: swiftSettings
        ),
    ]
)

package.products = [
    .library(name: "HTTPCore", targets: ["HTTPCore"]),
    .library(name: "HTTPCoreTesting", targets: ["HTTPCoreTesting"]),
    .library(name: "APISandbox", targets: ["APISandbox"]),
    .executable(name: "api-sandbox", targets: ["SandboxServer"]),
    .executable(name: "httpcore-example", targets: ["HTTPCoreExample"]),
]
