import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// The limiter as a stage of the client's pipeline.
@Suite("Rate limit stage")
struct RateLimitStageTests {
    /// A client on `transport` and `clock` whose every request spends from one key of `limiter`.
    private func client(
        _ transport: ScriptedTransport,
        clock: TestClock,
        limiter: TokenBucketRateLimiter,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) throws -> Client {
        try makeClient(transport) {
            $0.timeSource = clock
            $0.rateLimit = RateLimiting(limiter: limiter, key: "account")
            configure(&$0)
        }
    }

    /// A transport that answers every request with `{}`.
    private func answeringOK(_ clock: TestClock) -> ScriptedTransport {
        ScriptedTransport(clock: clock) {
            TransportResponse(response: HTTPResponse(status: .ok), body: Data("{}".utf8), url: $0.url)
        }
    }

    @Test("Every attempt costs a permit: a retry waits for the next token")
    func retriesCostPermits() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), .json([:])], clock: clock)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        _ = try await client(transport, clock: clock, limiter: limiter).send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.map(\.time) == [.zero, .seconds(10)])
    }

    @Test("A redirect's hops share the attempt's permit")
    func redirectsShareAPermit() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [.status(302, headers: [.location: "https://api.example.com/v1/y"]), .json([:])],
            clock: clock
        )
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        _ = try await client(transport, clock: clock, limiter: limiter).send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.map(\.time) == [.zero, .zero])
    }

    @Test("A request waiting for its permit is authorized after the wait, with the token current then")
    func authorizedAfterTheWait() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.json([:]), .json([:])], clock: clock)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let client = try client(transport, clock: clock, limiter: limiter) {
            $0.auth = TokenProviderAuth(ClockTokenProvider(clock: clock))
        }
        for _ in 0..<2 { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(transport.requests.map(\.time) == [.zero, .seconds(10)])
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer t0", "Bearer t10"])
    }

    @Test("Requests the key leaves out are not limited")
    func unkeyedRequests() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.json([:]), .json([:]), .json([:])], clock: clock)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let client = try makeClient(transport) {
            $0.timeSource = clock
            $0.rateLimit = RateLimiting(limiter: limiter) { $0.path == "/v1/limited" ? "k" : nil }
        }
        for path in ["limited", "free", "free"] { _ = try await client.send(Endpoint<JSONValue>(.get, path)) }
        #expect(clock.sleeps.isEmpty)
    }

    @Test("Concurrent calls stay within the cap: 2 per 10 s lets 5 calls out at 0, 0, 10, 10, 20 s")
    func concurrentCap() async throws {
        let clock = TestClock(mode: .manual)
        let transport = answeringOK(clock)
        let limiter = TokenBucketRateLimiter(RequestRate(2, per: .seconds(10)))
        let client = try client(transport, clock: clock, limiter: limiter) { $0.retryBudget = nil }
        let calls = Task { try await sendConcurrently(5, "x", through: client) }
        await clock.waitForSleepers(3)
        // The two calls with permits may still be on their way to the transport.
        await waitUntil { transport.requests.count >= 2 }
        #expect(transport.requests.count == 2)
        clock.advance(by: .seconds(10))
        await clock.waitForSleepers(1)
        await waitUntil { transport.requests.count >= 4 }
        #expect(transport.requests.count == 4)
        clock.advance(by: .seconds(10))
        try await calls.value
        #expect(transport.requests.map(\.time) == [.zero, .zero, .seconds(10), .seconds(10), .seconds(20)])
    }

    @Test(
        "A 429's Retry-After pauses every client sharing the limiter, for an hour at most",
        arguments: [("30", Duration.seconds(30)), ("99999999", .seconds(3600))]
    )
    func sharedPause(retryAfter: String, pause: Duration) async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(429, headers: [.retryAfter: retryAfter]), .json([:])], clock: clock)
        let limiter = TokenBucketRateLimiter(RequestRate(50, per: .seconds(10)))
        let first = try client(transport, clock: clock, limiter: limiter) { $0.retry = .none }
        let second = try client(transport, clock: clock, limiter: limiter)
        await expectAPIError(.rateLimit) { try await first.send(Endpoint<JSONValue>(.get, "x")) }
        _ = try await second.send(Endpoint<JSONValue>(.get, "y"))
        #expect(transport.requests.map(\.time) == [.zero, pause])
    }

    @Test("A 503 with Retry-After from the storage a redirect led to does not pause the API's key")
    func otherOriginDoesNotPause() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [
                .status(302, headers: [.location: "https://cdn.example.net/f"]),
                .status(503, headers: [.retryAfter: "600"]), .json([:]),
            ],
            clock: clock
        )
        let limiter = TokenBucketRateLimiter(RequestRate(50, per: .seconds(10)))
        let client = try client(transport, clock: clock, limiter: limiter) { $0.retry = .none }
        await expectAPIError(.apiError) { try await client.send(Endpoint<JSONValue>(.get, "x")) }
        _ = try await client.send(Endpoint<JSONValue>(.get, "y"))
        #expect(transport.requests.map(\.time) == [.zero, .zero, .zero])
    }

    @Test("A call cancelled while it waits for a permit ends with CancellationError and sends nothing")
    func cancelledWhileWaiting() async throws {
        let clock = TestClock(mode: .manual)
        let transport = answeringOK(clock)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let client = try client(transport, clock: clock, limiter: limiter)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let waiting = Task { try await client.send(Endpoint<JSONValue>(.get, "x")) }
        await clock.waitForSleepers(1)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(transport.requests.count == 1)
    }

    @Test("A call whose deadline comes before its permit fails at once with rate_limit, unsent")
    func deadlineBeforePermit() async throws {
        let clock = TestClock()
        let transport = answeringOK(clock)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let client = try client(transport, clock: clock, limiter: limiter) { $0.deadline = .seconds(5) }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let error = await expectAPIError(.rateLimit) { try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.details.retryAfter == .seconds(10))
        #expect(error?.message.contains("deadline") == true)
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }
}

/// A token named after the second the test clock reads, as a provider that rotates tokens would
/// hand out a newer one later.
private struct ClockTokenProvider: TokenProvider {
    let clock: TestClock

    func currentToken() async throws -> String {
        "t\(clock.monotonicNow().components.seconds)"
    }
}
