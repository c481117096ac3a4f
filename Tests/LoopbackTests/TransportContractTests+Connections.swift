import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Testing

extension TransportContractTests {
    @Test("A real 503 → 200 is retried over the wire", arguments: TransportUnderTest.allCases)
    func retryOverTheWire(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            sandbox.script(
                "flaky",
                [ScriptStep(status: 503), ScriptStep(status: 200, body: .object(["ok": .bool(true)]))]
            )
            let client = try makeClient(sandbox, transport) {
                $0.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), jitter: .none)
            }
            let value = try await client.send(Endpoint<JSONValue>(.get, "_test/script/flaky"))
            #expect(value["ok"] == true)
            #expect(sandbox.counters().requestsByPath["/_test/script/flaky"] == 2)
        }
    }

    @Test("100 sequential requests reuse one keep-alive connection", arguments: TransportUnderTest.allCases)
    func sequentialKeepAlive(kind: TransportUnderTest) async throws {
        try await withConnectionProbe(kind) { client, connections in
            let started = ContinuousClock.now
            // Each request is two hops on the concurrency pool the whole suite shares, so a full
            // run stretches every one; 100 show reuse and keep the test well inside its 30 s there.
            for index in 0..<100 {
                let answer = try await client.send(Endpoint<JSONValue>(.get, "loopback-probe/\(index)"))
                #expect(answer["index"]?.intValue == index)
            }
            let elapsed = ContinuousClock.now - started
            Measurements.record("\(kind.rawValue): 100 sequential requests in \(elapsed.formattedMilliseconds)")
            #expect(connections.requests == 100)
            #expect(connections.distinctConnections <= 2, "\(connections.distinctConnections) connections")
        }
    }

    @Test(
        "Bodiless answers (204, 304, HEAD) end the exchange at once and keep reusing one connection",
        arguments: TransportUnderTest.allCases
    )
    func bodilessKeepAlive(kind: TransportUnderTest) async throws {
        try await withConnectionProbe(kind) { client, connections in
            let notModified = Endpoint<NoContent>(
                .get,
                "loopback-probe-empty/304",
                headers: [.ifNoneMatch: "\"probe\""]
            )
            for round in 0..<99 {
                let endpoint: Endpoint<NoContent> =
                    switch round % 3 {
                    case 0: Endpoint(.get, "loopback-probe-empty/204")
                    case 1: Endpoint(.head, "loopback-probe-empty/204")
                    default: notModified
                    }
                do {
                    let response = try await client.response(endpoint)
                    #expect(response.body.isEmpty)
                    #expect(response.headers[.eTag] == "\"probe\"")
                } catch let error as APIError {
                    // A 304 to the caller's own conditional request is not a success status.
                    #expect(round % 3 == 2 && error.httpStatus == 304, "\(error)")
                }
            }
            #expect(connections.requests == 99)
            #expect(connections.distinctConnections <= 2, "\(connections.distinctConnections) connections")
        }
    }

    @Test("64 concurrent requests through one client all get their own answers", arguments: TransportUnderTest.allCases)
    func concurrentRequests(kind: TransportUnderTest) async throws {
        try await withConnectionProbe(kind) { client, connections in
            let started = ContinuousClock.now
            let answers = try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
                for index in 0..<64 {
                    group.addTask {
                        let answer = try await client.send(
                            Endpoint<JSONValue>(.get, "loopback-probe/\(index)", query: ["delay_ms": 50])
                        )
                        return (index, answer)
                    }
                }
                return try await group.reduce(into: [Int: JSONValue]()) { $0[$1.0] = $1.1 }
            }
            let elapsed = ContinuousClock.now - started
            Measurements.record(
                "\(kind.rawValue): 64 concurrent requests (50 ms each) in \(elapsed.formattedMilliseconds)"
                    + " over \(connections.distinctConnections) connections"
            )
            #expect(answers.count == 64)
            for index in 0..<64 {
                #expect(answers[index]?["index"]?.intValue == index)
            }
            #expect(connections.requests == 64)
            // Not one connection per request, and not all on one connection either.
            #expect(connections.distinctConnections > 1)
            #expect(connections.distinctConnections <= 64)
        }
    }
}

/// Runs `body` with a client of `kind` on a sandbox that logs the connection each request came on.
private func withConnectionProbe(
    _ kind: TransportUnderTest,
    _ body: (Client, ConnectionLog) async throws -> Void
) async throws {
    let connections = ConnectionLog()
    try await withContract(kind, SandboxConfiguration(modules: [ConnectionProbe(log: connections)])) {
        sandbox,
        transport in
        try await body(try makeClient(sandbox, transport), connections)
    }
}
