import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Retry")
struct RetryTests {
    /// A client on `transport` whose clock records every wait.
    private func client(
        _ transport: ScriptedTransport,
        clock: TestClock = TestClock(),
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) throws -> Client {
        try makeClient(transport) {
            $0.timeSource = clock
            configure(&$0)
        }
    }

    /// Sends a POST whose first answer is `failure` and returns the error it ends with, checking
    /// that it went out once: a failed write that may have been applied is never retried.
    private func failedPost(
        _ failure: ScriptedTransport.Step,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIError? {
        let transport = ScriptedTransport([failure, .json([:])])
        let client = try client(transport)
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.post, "x")) }
        #expect(transport.requests.count == 1, sourceLocation: sourceLocation)
        return error
    }

    @Test("503, 503, 200 → 3 requests, waits of at least 1 s and 2 s")
    func backoff() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), .status(503), .json(["ok": true])], clock: clock)
        let value = try await client(transport, clock: clock).send(Endpoint<JSONValue>(.get, "x"))
        #expect(value["ok"] == true)
        #expect(transport.requests.count == 3)
        let waits = clock.sleeps
        #expect(waits.count == 2)
        #expect(waits[0] >= .seconds(1) && waits[0] <= .milliseconds(1100))
        #expect(waits[1] >= .seconds(2) && waits[1] <= .milliseconds(2100))
        #expect(transport.requests[2].time - transport.requests[0].time >= .seconds(3))
    }

    @Test("429 with Retry-After: 3 → exactly a 3 s wait, no jitter")
    func retryAfterSeconds() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(429, headers: [.retryAfter: "3"]), .json([:])])
        _ = try await client(transport, clock: clock).send(Endpoint<JSONValue>(.get, "x"))
        #expect(clock.sleeps == [.seconds(3)])
        #expect(transport.requests.count == 2)
    }

    @Test("An HTTP-date Retry-After waits until that date")
    func retryAfterDate() async throws {
        let clock = TestClock(start: Date(timeIntervalSince1970: 784_111_777))  // 08:49:37 GMT
        let transport = ScriptedTransport([
            .status(503, headers: [.retryAfter: "Sun, 06 Nov 1994 08:49:42 GMT"]), .json([:]),
        ])
        _ = try await client(transport, clock: clock).send(Endpoint<JSONValue>(.get, "x"))
        #expect(clock.sleeps == [.seconds(5)])
    }

    @Test("A garbage Retry-After falls back to the computed backoff")
    func retryAfterGarbage() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503, headers: [.retryAfter: "soon-ish"]), .json([:])])
        _ = try await client(transport, clock: clock) { $0.retry.jitter = .none }.send(Endpoint<JSONValue>(.get, "x"))
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test("A Retry-After above maxRetryAfter fails at once with rate_limit carrying the wait")
    func retryAfterTooLong() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(429, headers: [.retryAfter: "120"]), .json([:])])
        let client = try client(transport, clock: clock)
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .rateLimit)
        #expect(error?.details.retryAfter == .seconds(120))
        #expect(error?.httpStatus == 429)
        #expect(clock.sleeps.isEmpty)
        #expect(transport.requests.count == 1)
    }

    @Test("A POST is not retried on 503: one request, the 503 mapped")
    func postNotRetried() async throws {
        let error = try await failedPost(.status(503))
        #expect(error?.code == .apiError)
        #expect(error?.httpStatus == 503)
    }

    @Test("A POST marked idempotent is retried")
    func idempotentPost() async throws {
        let transport = ScriptedTransport([.status(503), .json([:])])
        let endpoint = Endpoint<JSONValue>(.post, "x", operation: OperationMetadata(idempotent: true))
        _ = try await client(transport).send(endpoint)
        #expect(transport.requests.count == 2)
    }

    @Test("With an idempotency-key header, every attempt carries the same fresh key")
    func idempotencyKey() async throws {
        let transport = ScriptedTransport([.status(503), .status(429), .json([:]), .json([:])])
        let client = try client(transport) { $0.idempotencyKeyHeader = .idempotencyKey }
        _ = try await client.send(Endpoint<JSONValue>(.post, "x"))
        _ = try await client.send(Endpoint<JSONValue>(.post, "x"))
        let keys = transport.requests.map { $0.header("Idempotency-Key") }
        #expect(keys.count == 4)
        #expect(keys[0] != nil && keys[0] == keys[1] && keys[1] == keys[2])
        #expect(keys[3] != nil && keys[3] != keys[0], "a new call gets a new key")
    }

    @Test(
        "Only POST and PATCH get an idempotency key; a write by another method is never retried",
        arguments: [HTTPRequest.Method.get, .put, .delete]
    )
    func keysOnlyForPostAndPatch(method: HTTPRequest.Method) async throws {
        // An API that writes with GET (Markbook) marks those operations not idempotent; a key
        // there would make the write look safe to repeat to a server that never heard of keys.
        let transport = ScriptedTransport([.status(503), .json([:])])
        let client = try client(transport) { $0.idempotencyKeyHeader = .idempotencyKey }
        let write = Endpoint<JSONValue>(method, "x", operation: OperationMetadata(idempotent: false))
        let error = await caughtAPIError { _ = try await client.send(write) }
        #expect(error?.httpStatus == 503)
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].header("Idempotency-Key") == nil)
    }

    @Test("A network error on GET is retried")
    func networkGet() async throws {
        let transport = ScriptedTransport([.connectionLost, .timedOut, .json(["ok": true])])
        _ = try await client(transport).send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.count == 3)
    }

    @Test("A lost connection on a non-idempotent POST is ambiguous, never retried")
    func networkPostAmbiguous() async throws {
        let error = try await failedPost(.connectionLost)
        #expect(error?.code == .ambiguous)
        #expect(error?.exitCode == 8)
    }

    @Test("A refused connection is retried even for a POST: nothing was sent")
    func refusedPost() async throws {
        let transport = ScriptedTransport([.connectionRefused, .json([:])])
        _ = try await client(transport).send(Endpoint<JSONValue>(.post, "x"))
        #expect(transport.requests.count == 2)
    }

    @Test("An empty retry budget ends the call with its last error")
    func budget() async throws {
        let transport = ScriptedTransport(handler: { request in
            TransportResponse(response: HTTPResponse(status: .serviceUnavailable), url: request.url)
        })
        let client = try client(transport) {
            $0.retryBudget = RetryBudget(ratio: 0, window: .seconds(60), minimumRetries: 2)
            $0.retry.maxAttempts = 5
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.httpStatus == 503)
        #expect(transport.requests.count == 3, "one first attempt plus the 2 retries the budget allows")
        _ = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(transport.requests.count == 4, "the budget is spent: no retry at all")
    }

    @Test("The budget allows 20% extra over first attempts once past its floor")
    func budgetRatio() async throws {
        let transport = ScriptedTransport(handler: { request in
            let status: HTTPResponse.Status = request.url.path.hasSuffix("fail") ? .serviceUnavailable : .ok
            return TransportResponse(response: HTTPResponse(status: status), body: Data("{}".utf8), url: request.url)
        })
        let client = try client(transport) {
            $0.retryBudget = RetryBudget(ratio: 0.2, window: .seconds(3600), minimumRetries: 0)
            $0.retry.maxAttempts = 2
        }
        for _ in 0..<50 { _ = try await client.send(Endpoint<JSONValue>(.get, "ok")) }
        for _ in 0..<20 { _ = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "fail")) } }
        let failing = transport.requests.filter { $0.url.path.hasSuffix("fail") }.count
        // 70 first attempts allow 14 retries: 20 failing first attempts + 14 retries.
        #expect(failing == 34)
    }

    @Test("The deadline covers attempts and waits; a wait that would cross it is not started")
    func deadline() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), .status(503), .status(503), .json([:])], clock: clock)
        let client = try client(transport, clock: clock) {
            $0.retry = RetryPolicy(maxAttempts: 5, jitter: .none)
            $0.deadline = .milliseconds(2500)
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .network)
        #expect(error?.message.contains("deadline") == true)
        #expect(transport.requests.count == 2, "the 2 s wait after attempt 2 would end past 2.5 s")
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test(
        "A Retry-After that would cross the deadline ends the call with the server's answer and its wait",
        arguments: [(429, APIError.Code.rateLimit), (503, .apiError)]
    )
    func retryAfterPastDeadline(status: Int, code: APIError.Code) async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [.status(status, headers: [.retryAfter: "30"]), .json([:])],
            clock: clock
        )
        let client = try client(transport, clock: clock) {
            $0.retry = RetryPolicy(maxAttempts: 3, jitter: .none)
            $0.deadline = .seconds(10)
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == code)
        #expect(error?.httpStatus == status)
        #expect(error?.details.retryAfter == .seconds(30))
        #expect(error?.message.contains("asked to wait 30 s before retrying, past the call's deadline") == true)
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("A per-call deadline overrides the client's, and bounds the whole attempt, not only its idle time")
    func perCallDeadline() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), .json([:]), .json([:])], clock: clock)
        let client = try client(transport, clock: clock) {
            $0.retry = RetryPolicy(maxAttempts: 2, jitter: .none)
            $0.deadline = .seconds(600)
        }
        var endpoint = Endpoint<JSONValue>(.get, "x")
        endpoint.deadline = .seconds(5)
        _ = try await client.send(endpoint)
        let options = transport.requests.map(\.options)
        #expect(options.map(\.timeout) == [.seconds(5), .seconds(4)])
        #expect(options.map(\.totalTimeout) == [.seconds(5), .seconds(4)], "what is left after the 1 s wait")
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.last?.options.totalTimeout == .seconds(600))
    }

    @Test("Without a deadline the attempt has only the idle timeout")
    func noDeadline() async throws {
        let transport = ScriptedTransport([.json([:])])
        let client = try client(transport) { $0.timeout = .seconds(7) }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.first?.options.timeout == .seconds(7))
        #expect(transport.requests.first?.options.totalTimeout == nil)
    }

    @Test("Cancelling during a wait ends it at once with CancellationError; no further attempt")
    func cancellation() async throws {
        // A manual clock never advances by itself, so the wait can only end through cancellation:
        // if it ends, it ended because of the cancel, not because its 1 s elapsed.
        let clock = TestClock(mode: .manual)
        let transport = ScriptedTransport([.status(503), .json([:])], clock: clock)
        let client = try client(transport, clock: clock)
        let task = Task { try await client.send(Endpoint<JSONValue>(.get, "x")) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(clock.monotonicNow() == .zero, "no simulated time passed")
        #expect(clock.sleeperCount == 0)
        #expect(transport.requests.count == 1)
    }

    @Test("Attempts 0 and 1 both send exactly one request", arguments: [0, 1])
    func noRetry(attempts: Int) async throws {
        let transport = ScriptedTransport([.status(503), .json([:])])
        let client = try client(transport) { $0.retry.maxAttempts = attempts }
        _ = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(transport.requests.count == 1)
    }

    @Test("Per-operation policy overrides the client's")
    func perOperation() async throws {
        let transport = ScriptedTransport([.status(500), .status(500), .json([:])])
        let client = try client(transport) { $0.retry = .none }
        let policy = RetryPolicy(maxAttempts: 3, retryableStatuses: [500])
        _ = try await client.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(retry: policy)))
        #expect(transport.requests.count == 3)
    }

    @Test("Backoff shapes and the ceiling; attempt 64 and beyond saturate without overflow")
    func shapes() {
        var exponential = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: .none)
        #expect((1...6).map { exponential.delay(forRetry: $0) } == [1, 2, 4, 8, 16, 30].map { .seconds($0) })
        #expect(exponential.delay(forRetry: 64) == .seconds(30))
        #expect(exponential.delay(forRetry: Int.max) == .seconds(30))
        exponential.maxDelay = .seconds(Int64.max / 2)
        #expect(exponential.delay(forRetry: 2000) == .seconds(Double(Int64.max / 2)))
        let linear = RetryPolicy(backoff: .linear, jitter: .none)
        #expect((1...3).map { linear.delay(forRetry: $0) } == [1, 2, 3].map { .seconds($0) })
        let constant = RetryPolicy(baseDelay: .milliseconds(250), backoff: .constant, jitter: .none)
        #expect(constant.delay(forRetry: 9) == .milliseconds(250))
    }

    @Test("Jitter stays in range: additive adds up to its maximum, full stays below the backoff")
    func jitter() {
        let additive = RetryPolicy(jitter: .additive(max: .milliseconds(100)))
        let full = RetryPolicy(jitter: .full)
        for _ in 0..<200 {
            let a = additive.delay(forRetry: 2)
            #expect(a >= .seconds(2) && a <= .milliseconds(2100))
            let f = full.delay(forRetry: 3)
            #expect(f >= .zero && f <= .seconds(4))
        }
    }

    @Test("The retry hook fires before each wait with attempt, error and delay")
    func hook() async throws {
        let recorder = HookRecorder()
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), .status(429, headers: [.retryAfter: "4"]), .json([:])])
        let client = try client(transport, clock: clock) {
            $0.hooks = recorder
            $0.retry.jitter = .none
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let retries = recorder.events.retries
        #expect(retries.map(\.attempt) == [1, 2])
        #expect(retries.map(\.delay) == [.seconds(1), .seconds(4)])
        #expect(retries.map { $0.error.httpStatus } == [503, 429])
        #expect(recorder.events.requestStarts.map(\.attempt) == [1, 2, 3])
        #expect(recorder.events.operationEnds.first?.attempts == 3)
    }
}
