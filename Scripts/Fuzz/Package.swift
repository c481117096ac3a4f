// swift-tools-version:6.2
import PackageDescription

// libFuzzer harnesses for the SDKs' parsers and decoders. Kept out of the root package so the
// normal build, tests and lint never see `-sanitize=fuzzer`; Scripts/fuzz.sh builds and runs them.
// Each executable exposes `LLVMFuzzerTestOneInput` and gets `main` from libFuzzer, hence
// `-parse-as-library`.

let fuzzerSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-parse-as-library"]),
]

let fuzzers: [(name: String, products: [String])] = [
    ("LinkHeaderFuzzer", ["HTTPCore"]),
    ("RetryAfterFuzzer", ["HTTPCore"]),
    ("ErrorBodyFuzzer", ["HTTPCore"]),
    ("JSONValueFuzzer", ["HTTPCore"]),
    ("TimetableFuzzer", ["HTTPCore", "MonashSchedule"]),
    ("BasecampModelFuzzer", ["HTTPCore", "Basecamp"]),
    ("MarkbookFuzzer", ["HTTPCore", "Markbook"]),
    ("WebhookEventFuzzer", ["HTTPCore", "Basecamp", "HTTPCoreWebhooks"]),
]

let package = Package(
    name: "Fuzz",
    dependencies: [
        .package(name: "swift-api-sdks", path: "../.."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: fuzzers.map { fuzzer in
        .executableTarget(
            name: fuzzer.name,
            dependencies: fuzzer.products.map { .product(name: $0, package: "swift-api-sdks") }
                + [.product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: fuzzerSettings
        )
    }
)
