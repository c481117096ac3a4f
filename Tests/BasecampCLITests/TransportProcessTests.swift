import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `basecamp` on the tools' own transport (AsyncHTTPClient on Linux, URLSession on
/// Apple platforms) against a sandbox the test runs.
@Suite("The built basecamp's transport: idle waits, IPv6, fractional timeouts")
struct TransportProcessTests {
    static let route = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/projects.json"

    /// Whether this machine can bind the IPv6 loopback address.
    static var hasIPv6Loopback: Bool { canBindLoopback(ipv6: true) }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Waiting 5 s for a slow server costs the process next to no CPU")
    func idleWait() async throws {
        let faults = FaultInjection(
            sequence: [nil, nil, .slowResponse(milliseconds: 5000)],
            pathPrefixes: [Self.route]
        )
        try await withBasecampSandbox(faults: faults) { _, baseURL in
            let arguments = ["--no-retry", "projects", "list"]
            // The same command without the wait, twice: what starting and printing cost.
            var quick: [Duration] = []
            for _ in 0..<2 {
                let run = try await BuiltExecutable.measure(
                    "basecamp",
                    arguments: arguments,
                    variables: credentials(baseURL)
                )
                #expect(run.result.exitCode == 0, "\(run.result.stderr)")
                quick.append(run.cpuTime)
            }
            let started = ContinuousClock.now
            let slow = try await BuiltExecutable.measure(
                "basecamp",
                arguments: arguments,
                variables: credentials(baseURL)
            )
            let waited = ContinuousClock.now - started
            #expect(slow.result.exitCode == 0, "\(slow.result.stderr)")
            #expect(slow.result.stdout.contains("The Leto Laptop"))
            #expect(waited >= .milliseconds(4900))
            let baseline = quick.min() ?? .zero
            let extra = slow.cpuTime - baseline
            print("[transport] CPU: \(slow.cpuTime) with a 5 s wait, \(baseline) without; the wait cost \(extra)")
            // Measured within ±10 ms of nothing; a transport that polls while it waits spends
            // most of the 5 s.
            #expect(extra < .milliseconds(100))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An IPv6 literal base URL works", .enabled(if: hasIPv6Loopback))
    func ipv6() async throws {
        try await withBasecampSandbox(host: "::1") { _, baseURL in
            #expect(baseURL.hasPrefix("http://[::1]:"))
            let result = try await runBuiltBasecamp(
                ["--no-retry", "projects", "list"],
                variables: credentials(baseURL)
            )
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("The Leto Laptop"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--timeout takes fractions of a second")
    func fractionalTimeout() async throws {
        let faults = FaultInjection(sequence: [.slowResponse(milliseconds: 700)], pathPrefixes: [Self.route])
        try await withBasecampSandbox(faults: faults) { _, baseURL in
            let result = try await runBuiltBasecamp(
                ["--no-retry", "--timeout", "0.4", "--json", "projects", "list"],
                variables: credentials(baseURL)
            )
            #expect(result.exitCode == 6, "\(result.stderr)")
            #expect(try result.errorReport().code == "network")
        }
    }
}
