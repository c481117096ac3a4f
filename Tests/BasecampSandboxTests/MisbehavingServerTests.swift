import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreOAuth
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sandbox's knobs for playing a server that is wrong: a skewed clock and a broken discovery
/// document, as `BASECAMP_SANDBOX_CLOCK_SKEW` and `BASECAMP_SANDBOX_BROKEN_DISCOVERY` set them.
@Suite("A sandbox told to misbehave")
struct MisbehavingServerTests {
    @Test("BASECAMP_SANDBOX_CLOCK_SKEW moves the Date header of every answer")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func skewedClock() async throws {
        let clock = try #require(
            try BasecampSandboxModule.clock(fromEnvironment: ["BASECAMP_SANDBOX_CLOCK_SKEW": "-300"])
        )
        #expect(clock.offset == .seconds(-300))
        let authorization = BasecampSandboxAuthorization(now: { clock.now() })
        var module = BasecampSandboxModule(authorization: authorization)
        module.timeSource = clock
        let configuration = SandboxConfiguration(modules: [module], clock: clock)
        try await Sandbox.withRunning(configuration: configuration) { sandbox in
            for path in [
                "basecamp/\(accountID)/projects.json", ".well-known/oauth-protected-resource", "_test/counters",
                "nowhere",
            ] {
                var request = URLRequest(url: sandbox.baseURL.appending(path: path))
                request.setValue("Bearer sandbox-token", forHTTPHeaderField: "Authorization")
                request.setValue("MisbehavingServerTests (tests@example.com)", forHTTPHeaderField: "User-Agent")
                let before = Date()
                let (_, response) = try await URLSession.shared.data(for: request)
                let after = Date()
                let date = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Date"))
                let served = try #require(HTTPDate.parse(date))
                // Five minutes behind the time the answer was made, which the header rounds down
                // to the second.
                let earliest = before.addingTimeInterval(-301)
                let latest = after.addingTimeInterval(-299)
                #expect(served >= earliest && served <= latest, "\(path): \(date)")
            }
        }
    }

    @Test("No skew, or an unusable one: no clock, or an error naming the variable")
    func skewSetting() throws {
        #expect(try BasecampSandboxModule.clock(fromEnvironment: [:]) == nil)
        #expect(try BasecampSandboxModule.clock(fromEnvironment: ["BASECAMP_SANDBOX_CLOCK_SKEW": "0"]) == nil)
        #expect(
            try BasecampSandboxModule.clock(fromEnvironment: ["BASECAMP_SANDBOX_CLOCK_SKEW": "90.5"])?.offset
                == .milliseconds(90_500)
        )
        for bad in ["soon", "1e9", "nan", "5m"] {
            #expect(throws: SandboxSettingError.self) {
                try BasecampSandboxModule.clock(fromEnvironment: ["BASECAMP_SANDBOX_CLOCK_SKEW": bad])
            }
        }
    }

    @Test("BASECAMP_SANDBOX_BROKEN_DISCOVERY: the issuer's metadata is cut off, so discovery fails")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func brokenDiscovery() async throws {
        let options = try SandboxAuthorizationOptions.fromEnvironment(["BASECAMP_SANDBOX_BROKEN_DISCOVERY": "1"])
        #expect(options.servesBrokenDiscovery)
        let module = BasecampSandboxModule(authorization: BasecampSandboxAuthorization(options: options))
        try await withBasecampSandbox(module: module) { sandbox in
            let metadata = sandbox.baseURL.appending(path: ".well-known/oauth-authorization-server")
            var request = URLRequest(url: metadata)
            request.setValue("MisbehavingServerTests (tests@example.com)", forHTTPHeaderField: "User-Agent")
            let (body, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: body) }

            let error = await #expect(throws: DiscoveryError.self) {
                try await BasecampOAuth.discoverAuthorizationServer(
                    apiBaseURL: sandbox.basecampURL,
                    launchpad: sandbox.baseURL.appending(path: "launchpad"),
                    network: OAuthNetwork(transport: URLSessionTransport(), userAgent: "tests (tests@example.com)"),
                    allowsLoopback: true
                )
            }
            #expect(error?.reason == .invalidMetadata(member: nil))
            #expect(error?.document == .authorizationServer)
        }
    }
}
