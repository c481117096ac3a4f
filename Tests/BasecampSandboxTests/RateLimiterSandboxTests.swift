import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

/// The client's own limiter against the sandbox's rate limit, both on one test clock.
@Suite("Client rate limiter against the sandbox")
struct RateLimiterSandboxTests {
    /// An account client with retry off, so a 429 fails the call, and `limiter` if any.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func account(
        _ sandbox: Sandbox,
        clock: TestClock,
        limiter: (any HTTPCore.RateLimiter)?
    ) throws -> AccountClient {
        var config = BasecampConfig(baseURL: sandbox.basecampURL, enableRetry: false)
        config.rateLimiter = limiter
        return try BasecampClient(
            accessToken: "sandbox-token",
            userAgent: "BasecampSandboxTests (tests@example.com)",
            config: config,
            transport: URLSessionTransport(),
            timeSource: clock
        ).forAccount(accountID)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("12 calls under a 5-per-10-s limit: none refused with the limiter, the 6th refused without")
    func staysUnderTheLimit() async throws {
        let clock = TestClock()
        var module = BasecampSandboxModule()
        module.timeSource = clock
        module.rateLimiter.setLimit(SandboxRateLimit(5, per: .seconds(10)))
        try await withBasecampSandbox(module: module) { sandbox in
            let limited = try account(
                sandbox,
                clock: clock,
                limiter: TokenBucketRateLimiter(RequestRate(5, per: .seconds(10)))
            )
            for _ in 0..<12 { _ = try await limited.projects.list() }
            #expect(clock.monotonicNow() == .seconds(20))

            try await clock.sleep(for: .seconds(10))
            let unlimited = try account(sandbox, clock: clock, limiter: nil)
            for _ in 0..<5 { _ = try await unlimited.projects.list() }
            await expectAPIError(.rateLimit) { _ = try await unlimited.projects.list() }
        }
    }
}
