import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Polling")
struct PollingTests {
    private let endpoint = Endpoint<Resource>(.get, "builds/42")

    private static func version(_ number: Int, etag: String) -> ScriptedTransport.Step {
        .json(["name": "build", "version": .number(Double(number))], headers: [.eTag: "\"\(etag)\""])
    }

    /// A client on `transport` with the test clock and no retries, so each poll is one request.
    private func client(_ transport: ScriptedTransport, clock: TestClock) throws -> Client {
        try makeClient(transport) {
            $0.timeSource = clock
            $0.retry = .none
        }
    }

    /// A client answering with `replies` on a fresh test clock, without retries.
    private func client(replying replies: [ScriptedTransport.Step]) throws -> (Client, ScriptedTransport, TestClock) {
        let clock = TestClock()
        let transport = ScriptedTransport(replies)
        return (try client(transport, clock: clock), transport, clock)
    }

    /// The versions of the first `count` values `polling` yields.
    private func firstVersions(_ count: Int, of polling: Polling<Resource>) async throws -> [Int] {
        var values: [Int] = []
        for try await value in polling {
            values.append(value.version)
            if values.count == count { break }
        }
        return values
    }

    @Test("Yields the first value, then only changes; unchanged polls are 304s with If-None-Match")
    func yieldsOnlyChanges() async throws {
        let (client, transport, clock) = try client(replying: [
            Self.version(1, etag: "a"),
            .status(304),
            .status(304),
            Self.version(2, etag: "b"),
            .status(304),
            Self.version(2, etag: "b2"),  // a new ETag but the same value: not a change
            Self.version(3, etag: "c"),
        ])
        let values = try await firstVersions(3, of: client.poll(endpoint, every: .seconds(5)))
        #expect(values == [1, 2, 3])
        #expect(transport.requests.count == 7)
        #expect(
            transport.requests.map { $0.header("If-None-Match") } == [
                nil, "\"a\"", "\"a\"", "\"a\"", "\"b\"", "\"b\"", "\"b2\"",
            ]
        )
        #expect(clock.sleeps == Array(repeating: .seconds(5), count: 6))
    }

    @Test("Uses the client's own cache when it has one (revalidation events on its hooks)")
    func usesClientCache() async throws {
        let hooks = HookRecorder()
        let cache = ResponseCache()
        let transport = ScriptedTransport([Self.version(1, etag: "a"), .status(304), Self.version(2, etag: "b")])
        let client = try makeCachingClient(transport, cache: cache, hooks: hooks)
        let values = try await firstVersions(2, of: client.poll(endpoint, every: .seconds(1)))
        #expect(values == [1, 2])
        #expect(hooks.cacheKinds.contains(.revalidated))
        #expect(try await cache.count == 1)
    }

    @Test("Errors back off by the retry policy and polling goes on")
    func errorsBackOff() async throws {
        let (client, _, clock) = try client(replying: [
            Self.version(1, etag: "a"),
            .status(500),
            .connectionRefused,
            Self.version(2, etag: "b"),
        ])
        let backoff = RetryPolicy(baseDelay: .seconds(10), jitter: .none)
        let values = try await firstVersions(
            2,
            of: client.poll(endpoint, every: .seconds(1), options: PollOptions(backoff: backoff))
        )
        #expect(values == [1, 2])
        #expect(clock.sleeps == [.seconds(1), .seconds(10), .seconds(20)])
    }

    @Test("A poll answered 429 with a Retry-After waits that long before the next poll")
    func retryAfterIsWaited() async throws {
        let (client, _, clock) = try client(replying: [
            Self.version(1, etag: "a"), .status(429, headers: [.retryAfter: "600"]), Self.version(2, etag: "b"),
            .status(304),
        ])
        let values = try await firstVersions(2, of: client.poll(endpoint, every: .seconds(5)))
        #expect(values == [1, 2])
        #expect(clock.sleeps == [.seconds(5), .seconds(600)])
    }

    @Test(
        "A Retry-After of years, or a date far off, is waited for an hour at most",
        arguments: ["99999999999999", "Fri, 31 Dec 9999 23:59:59 GMT"]
    )
    func hugeRetryAfterIsCapped(retryAfter: String) async throws {
        let (client, _, clock) = try client(replying: [
            Self.version(1, etag: "a"), .status(429, headers: [.retryAfter: retryAfter]), Self.version(2, etag: "b"),
        ])
        let values = try await firstVersions(2, of: client.poll(endpoint, every: .seconds(5)))
        #expect(values == [1, 2])
        #expect(clock.sleeps == [.seconds(5), .seconds(3600)])
    }

    @Test("The wait after an error is never shorter than the interval")
    func backoffAtLeastInterval() async throws {
        let (client, _, clock) = try client(replying: [
            Self.version(1, etag: "a"), .status(500), Self.version(2, etag: "b"),
        ])
        let backoff = RetryPolicy(baseDelay: .milliseconds(100), jitter: .none)
        var iterator = client.poll(endpoint, every: .seconds(30), options: PollOptions(backoff: backoff))
            .makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        #expect(clock.sleeps == [.seconds(30), .seconds(30)])
    }

    @Test("throwsErrors ends the sequence with the error")
    func throwsErrors() async throws {
        let transport = ScriptedTransport([Self.version(1, etag: "a"), .status(404)])
        let client = try makeClient(transport) { $0.retry = .none }
        var iterator = client.poll(endpoint, every: .seconds(1), options: PollOptions(throwsErrors: true))
            .makeAsyncIterator()
        #expect(try await iterator.next()?.version == 1)
        let error = await caughtAPIError { _ = try await iterator.next() }
        #expect(error?.code == .notFound)
        #expect(try await iterator.next() == nil)
    }

    @Test("results yields failures as values and keeps polling")
    func resultsYieldFailures() async throws {
        let transport = ScriptedTransport([Self.version(1, etag: "a"), .status(500), Self.version(2, etag: "b")])
        let client = try makeClient(transport) { $0.retry = .none }
        var outcomes: [String] = []
        for await result in client.poll(endpoint, every: .seconds(1)).results {
            switch result {
            case .success(let value): outcomes.append("v\(value.version)")
            case .failure(let error): outcomes.append(error.code.rawValue)
            }
            if outcomes.count == 3 { break }
        }
        #expect(outcomes == ["v1", "api_error", "v2"])
    }

    @Test("Cancelling the task ends polling quietly, during the wait")
    func stopsOnCancellation() async throws {
        let clock = TestClock(mode: .manual)
        let transport = ScriptedTransport(clock: nil) { request in
            TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"same\""]),
                body: Data(#"{"name":"build","version":1}"#.utf8),
                url: request.url
            )
        }
        let client = try client(transport, clock: clock)
        let polling = client.poll(endpoint, every: .seconds(5))
        let task = Task {
            var count = 0
            for try await _ in polling { count += 1 }
            return count
        }
        await clock.waitForSleepers(1)
        #expect(transport.requests.count == 1)
        task.cancel()
        let count = try await task.value
        #expect(count == 1)
        #expect(transport.requests.count == 1)
    }

    @Test("A usage error always ends the sequence")
    func usageErrorEnds() async throws {
        let transport = ScriptedTransport()
        let client = try makeClient(transport)
        let bad = Endpoint<Resource>(.get, "http://insecure.example.com/x")
        var iterator = client.poll(bad, every: .seconds(1)).makeAsyncIterator()
        let error = await caughtAPIError { _ = try await iterator.next() }
        #expect(error?.code == .usage)
        #expect(transport.requests.isEmpty)
    }
}
