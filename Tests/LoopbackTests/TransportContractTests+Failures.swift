import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension TransportContractTests {
    @Test("A refused connection is a network error, even for a POST", arguments: TransportUnderTest.allCases)
    func connectionRefused(kind: TransportUnderTest) async throws {
        try await withRefusingPort { port in
            try await kind.withTransport { transport in
                let client = try makeClient(URL(string: "http://127.0.0.1:\(port)"), transport)
                let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.post, "anything")) }
                #expect(error?.code == .network)
                #expect(error?.exitCode == 6)
                // The refusal's own message, not the timeout's: how long it took is the loaded
                // machine's (a full parallel run has taken 31 s).
                let refused = "Could not connect to 127.0.0.1:\(port)"
                #expect(error?.message.hasPrefix(refused) == true, "\(String(describing: error))")
            }
        }
    }

    // FoundationNetworking cannot address an IPv6 literal host and answers URLError -1000; that
    // must be a usage error, tried once. A transport that can address it finds the port closed.
    @Test(
        "An IPv6 literal host is refused by name, or is a usage error where the transport cannot use it",
        arguments: TransportUnderTest.allCases
    )
    func ipv6LiteralHost(kind: TransportUnderTest) async throws {
        try await withRefusingPort(ipv6: true) { port in
            let baseURL = try #require(URL(string: "http://[::1]:\(port)"))
            try await kind.withTransport { transport in
                let attempts = Locked(0)
                let client = try makeClient(baseURL, transport) {
                    $0.retry = RetryPolicy(baseDelay: .milliseconds(1), jitter: .none)
                    $0.middlewares = [
                        ClosureMiddleware { request, body, context, next in
                            attempts.withLock { $0 += 1 }
                            return try await next(request, body, context)
                        }
                    ]
                }
                let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "anything")) }
                #if canImport(FoundationNetworking)
                if kind == .urlSession {
                    #expect(error?.code == .usage, "\(String(describing: error))")
                    #expect(error?.exitCode == 64)
                    #expect(error?.message.contains("[::1]:\(port)") == true)
                    #expect(attempts.withLock { $0 } == 1)
                    return
                }
                #endif
                #expect(error?.code == .network, "\(String(describing: error))")
                #expect(error?.message.contains("[::1]:\(port)") == true, "\(String(describing: error))")
                #expect(attempts.withLock { $0 } == 3)
            }
        }
    }

    @Test(
        "A connection that breaks before a complete response: network for GET, ambiguous for POST",
        arguments: TransportUnderTest.allCases,
        [ConnectionFault.closeBeforeResponse, .resetConnection, .truncatedBody]
    )
    func brokenConnection(kind: TransportUnderTest, fault: ConnectionFault) async throws {
        try await withContract(kind) { sandbox, transport in
            sandbox.script("broken", [.fault(fault)])
            let client = try makeClient(sandbox, transport)
            // Warm the connection up first, so the faulted request goes out on a reused one.
            _ = try await client.send(.echo(.get))
            let get = await caughtAPIError {
                _ = try await client.send(Endpoint<JSONValue>(.get, "_test/script/broken"))
            }
            #expect(get?.code == .network)
            _ = try await client.send(.echo(.get))
            let post = await caughtAPIError {
                _ = try await client.send(Endpoint<JSONValue>(.post, "_test/script/broken", body: .json(["n": 1])))
            }
            #expect(post?.code == .ambiguous)
            #expect(post?.exitCode == 8)
        }
    }

    @Test(
        "A write whose response is lost is applied once and reported as ambiguous, never resent",
        arguments: TransportUnderTest.allCases
    )
    func lostWriteResponse(kind: TransportUnderTest) async throws {
        let configuration = SandboxConfiguration(honoursIdempotencyKeys: false)
        try await withContract(kind, configuration) { sandbox, transport in
            // makeClient's long timeout, so a resend that hangs stands out from a busy machine.
            let client = try makeClient(sandbox, transport)
            // With and without a body: libcurl resends a body-less POST whole, and one with a body
            // without its body.
            let bodies: [RequestBody?] = [nil, .json(["n": 1]), nil, .json(["n": 2])]
            for (round, body) in zip(1..., bodies) {
                // Keep-alive: the write goes out after an earlier request left a connection open.
                _ = try await client.send(.echo(.get))
                sandbox.setFaults(
                    FaultInjection(sequence: [.connection(.dropResponse)], pathPrefixes: ["/_test/writes"])
                )
                let started = ContinuousClock.now
                let error = await caughtAPIError {
                    _ = try await client.send(Endpoint<JSONValue>(.post, "_test/writes", body: body))
                }
                #expect(error?.code == .ambiguous, "round \(round)")
                // Not after the client's timeout (a minute), as when libcurl resent it without its
                // body; half of it, since a full parallel run has stalled a call for 31 s.
                #expect(ContinuousClock.now - started < .seconds(30 * SanitizerRun.slowdown), "round \(round)")
                let counters = sandbox.counters()
                #expect(counters.requestsByPath["/_test/writes"] == round, "round \(round): the write was sent again")
                #expect(counters.writesApplied == round, "round \(round)")
            }
        }
    }

    @Test(
        "A GET marked not idempotent is never resent either",
        arguments: TransportUnderTest.allCases
    )
    func lostResponseToUnsafeGet(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            sandbox.script("trigger", [.fault(.dropResponse)])
            let client = try makeClient(sandbox, transport)
            _ = try await client.send(.echo(.get))
            let error = await caughtAPIError {
                _ = try await client.send(
                    Endpoint<JSONValue>(.get, "_test/script/trigger", operation: OperationMetadata(idempotent: false))
                )
            }
            #expect(error?.code == .ambiguous)
            #expect(sandbox.counters().requestsByPath["/_test/script/trigger"] == 1)
        }
    }

    @Test("Only a refused connection says the request was not sent", arguments: TransportUnderTest.allCases)
    func requestMayHaveBeenSent(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            sandbox.script("closed", [.fault(.closeBeforeResponse)])
            // The error of posting `{}` to `path` on the server at `port`.
            func postError(to port: Int, _ path: String) async -> TransportError? {
                await transportError {
                    _ = try await transport.send(
                        postRequest(to: port, path),
                        body: Data("{}".utf8),
                        options: TransportOptions(timeout: SanitizerRun.hangTimeout)
                    )
                }
            }
            let refused = try await withRefusingPort { port in await postError(to: port, "/anything") }
            #expect(refused?.kind == .cannotConnect)
            #expect(refused?.requestMayHaveBeenSent == false)
            let closed = await postError(to: sandbox.port, "/_test/script/closed")
            #expect(closed?.kind == .connectionLost)
            #expect(closed?.requestMayHaveBeenSent == true)
        }
    }
}
