import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Testing

/// The same cases for every transport, against a real loopback server.
@Suite("Transport contract")
struct TransportContractTests {
    @Test("GET, POST, PUT, PATCH, DELETE reach the server with their bodies", arguments: TransportUnderTest.allCases)
    func methods(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            for method in [HTTPRequest.Method.get, .delete] {
                let echo = try await client.send(.echo(method))
                #expect(echo.method == method.rawValue)
            }
            for method in [HTTPRequest.Method.post, .put, .patch] {
                let echo = try await client.send(.echo(method, body: .json(["n": 1, "name": "Ada"])))
                #expect(echo.method == method.rawValue)
                #expect(echo.body == #"{"n":1,"name":"Ada"}"#)
                #expect(echo.header("content-type") == "application/json")
                #expect(echo.header("content-length") == "20")
            }
        }
    }

    @Test("HEAD returns status and headers without a body", arguments: TransportUnderTest.allCases)
    func head(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let response = try await client.response(Endpoint<NoContent>(.head, "_test/bytes/4096"))
            #expect(response.status == .ok)
            #expect(response.headers[.contentLength] == "4096")
            #expect(response.body.isEmpty)
            // The connection is still usable: the next request on it gets its own answer.
            let echo = try await client.send(.echo(.get, "_test/echo/after-head"))
            #expect(echo.path == "/_test/echo/after-head")
        }
    }

    @Test("204 decodes as NoContent", arguments: TransportUnderTest.allCases)
    func noContent(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let response = try await client.response(Endpoint<NoContent>(.delete, "_test/status/204"))
            #expect(response.status == .noContent)
            #expect(response.body.isEmpty)
        }
    }

    @Test("Query parameters and headers round-trip exactly", arguments: TransportUnderTest.allCases)
    func roundTrip(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let echo = try await client.send(
                .echo(
                    .get,
                    "_test/echo/search",
                    query: ["q": "a b+c&d", "tag": ["x", "y"], "emoji": "😀", "none": nil],
                    headers: [HTTPField.Name("X-Custom") ?? .accept: "value 1"]
                )
            )
            #expect(echo.path == "/_test/echo/search")
            #expect(echo.query["q"] == ["a b+c&d"])
            #expect(echo.query["tag"] == ["x", "y"])
            #expect(echo.query["emoji"] == ["😀"])
            #expect(echo.query["none"] == nil)
            #expect(echo.header("x-custom") == "value 1")
        }
    }

    @Test("Response headers arrive with every value", arguments: TransportUnderTest.allCases)
    func responseHeaders(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let response = try await client.response(
                Endpoint<NoContent>(.get, "_test/status/200", query: ["header": ["X-One:1", "X-Two:two words"]])
            )
            #expect(response.headers[HTTPField.Name("X-One") ?? .accept] == "1")
            #expect(response.headers[HTTPField.Name("X-Two") ?? .accept] == "two words")
        }
    }

    @Test("A 10 MiB response and a 10 MiB upload arrive whole", arguments: TransportUnderTest.allCases)
    func largeBodies(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let size = 10 * 1024 * 1024
            let download = try await client.send(Endpoint<Data>(.get, "_test/bytes/\(size)"))
            #expect(download.count == size)
            #expect(download.prefix(4) == Data([0, 1, 2, 3]))
            #expect(download.last == UInt8((size - 1) % 256))
            let chunked = try await client.send(
                Endpoint<Data>(.get, "_test/bytes/\(size)", query: ["chunked": 1, "chunk_size": 65536])
            )
            #expect(chunked == download)
            let upload = try await client.send(.echo(.post, body: .bytes(download)))
            #expect(upload.bodyBytes == size)
        }
    }

    @Test("A body that arrives in many uneven parts is kept byte for byte", arguments: TransportUnderTest.allCases)
    func bodyInParts(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            // Sizes that line up with no buffer size, so parts split anywhere.
            let size = 300_007
            let expected = Data((0..<size).map { UInt8($0 % 256) })
            let whole = try await client.send(Endpoint<Data>(.get, "_test/bytes/\(size)"))
            #expect(whole == expected)
            let chunked = try await client.send(
                Endpoint<Data>(.get, "_test/bytes/\(size)", query: ["chunked": 1, "chunk_size": 4_099])
            )
            #expect(chunked == expected)
        }
    }

    @Test(
        "A body over the limit fails with limit_exceeded, with or without Content-Length",
        arguments: TransportUnderTest.allCases
    )
    func bodyLimit(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.maxResponseBodySize = 1024 * 1024 }
            for query: QueryParameters in [[:], ["chunked": 1, "chunk_size": 65536]] {
                let error = await apiError {
                    _ = try await client.send(Endpoint<Data>(.get, "_test/bytes/\(3 * 1024 * 1024)", query: query))
                }
                #expect(error?.code == .limitExceeded)
                #expect(error?.exitCode == 10)
            }
            let fits = try await client.send(Endpoint<Data>(.get, "_test/bytes/\(1024 * 1024)"))
            #expect(fits.count == 1024 * 1024)
            let fitsChunked = try await client.send(
                Endpoint<Data>(.get, "_test/bytes/\(1024 * 1024)", query: ["chunked": 1, "chunk_size": 65536])
            )
            #expect(fitsChunked.count == 1024 * 1024)
        }
    }

    // "Before any of it is read": the body is held until the test releases it, after the refusal.
    // A transport that read the body first would get it only when the hold gives out (two minutes),
    // which the elapsed-time check catches with a wide margin.
    @Test(
        "A success body is refused from its Content-Length before any of it is read; a HEAD is not",
        arguments: TransportUnderTest.allCases
    )
    func contentLengthRefusal(kind: TransportUnderTest) async throws {
        let configuration = SandboxConfiguration(modules: [AnnouncedLengthRoute()])
        try await withContract(kind, configuration) { sandbox, transport in
            // The head announces 10 MB at once; the first byte comes only after the release.
            let started = ContinuousClock.now
            let error = await transportError {
                _ = try await transport.send(
                    sandboxRequest(to: sandbox, "/announced-large"),
                    body: nil,
                    options: TransportOptions(maxBodySize: 1024)
                )
            }
            #expect(error?.kind == .bodyLimitExceeded(limit: 1024))
            #expect(ContinuousClock.now - started < .seconds(60))
            sandbox.release(AnnouncedLengthRoute.hold)
            // HEAD announces a length too and has no body: nothing to refuse.
            let head = try await transport.send(
                sandboxRequest(to: sandbox, "/_test/bytes/\(8 * 1024 * 1024)", method: .head),
                body: nil,
                options: TransportOptions(maxBodySize: 1024)
            )
            #expect(head.response.headerFields[.contentLength] == "\(8 * 1024 * 1024)")
            #expect(head.body.isEmpty)
        }
    }

    @Test(
        "A 304 announcing its representation's length is delivered, not refused",
        arguments: TransportUnderTest.allCases
    )
    func notModifiedWithLength(kind: TransportUnderTest) async throws {
        // RFC 9110 §8.6 lets a 304 carry the length a 200 would have had. Hummingbird drops that
        // field, so a server that writes the answer byte for byte sends it.
        let server = try CannedResponseServer(
            response: "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 10000000\r\n\r\n"
        )
        defer { server.stop() }
        try await kind.withTransport { transport in
            var request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/doc")
            request.headerFields[.ifNoneMatch] = "\"v1\""
            // Twice: the connection stays usable, as no body follows.
            for _ in 0..<2 {
                let response = try await transport.send(
                    request,
                    body: nil,
                    options: TransportOptions(maxBodySize: 1024)
                )
                #expect(response.response.status == .notModified)
                #expect(response.response.headerFields[.contentLength] == "10000000")
                #expect(response.body.isEmpty)
            }
        }
    }

    @Test("An endless chunked body is cut off at the limit, not buffered", arguments: TransportUnderTest.allCases)
    func bodyLimitWhileStreaming(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.maxResponseBodySize = 64 * 1024 }
            // 64 MiB in 16 KiB chunks 20 ms apart: a transport that read it all first would take 80 s
            // (4× both under a sanitizer, whose slowdown a busy machine has stretched past 30 s).
            let started = ContinuousClock.now
            let error = await apiError {
                _ = try await client.send(
                    Endpoint<Data>(
                        .get,
                        "_test/bytes/\(64 * 1024 * 1024)",
                        query: ["chunked": 1, "chunk_size": 16384, "chunk_delay_ms": 20 * SanitizerRun.slowdown]
                    )
                )
            }
            #expect(error?.code == .limitExceeded)
            #expect(ContinuousClock.now - started < .seconds(30 * SanitizerRun.slowdown))
        }
    }

    @Test("Error bodies are cut at the error-body limit, not failed", arguments: TransportUnderTest.allCases)
    func errorBodyLimit(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            var options = TransportOptions()
            options.maxErrorBodySize = 10
            let request = HTTPRequest(
                method: .get,
                scheme: "http",
                authority: "127.0.0.1:\(sandbox.port)",
                path: "/_test/status/500?body=" + String(repeating: "e", count: 5000)
            )
            let response = try await transport.send(request, body: nil, options: options)
            #expect(response.response.status.code == 500)
            #expect(response.body == Data(repeating: UInt8(ascii: "e"), count: 10))

            let client = try makeClient(sandbox, transport) { $0.maxErrorBodySize = 10 }
            let error = await apiError {
                _ = try await client.send(
                    Endpoint<JSONValue>(.get, "_test/status/500", query: ["body": String(repeating: "e", count: 5000)])
                )
            }
            #expect(error?.code == .apiError)
            #expect(error?.httpStatus == 500)
        }
    }

    @Test(
        "A 401 with an authentication challenge comes back as the 401",
        arguments: TransportUnderTest.allCases,
        [#"Bearer realm="api", error="invalid_token""#, "Bearer", #"Basic realm="api""#]
    )
    func authenticationChallenge(kind: TransportUnderTest, challenge: String) async throws {
        // FoundationNetworking answers a challenge itself unless the session's delegate does, and
        // without a credential to offer it left such a request waiting forever.
        try await withContract(kind) { sandbox, transport in
            let header = ("WWW-Authenticate:" + challenge).addingPercentEncoding(withAllowedCharacters: .alphanumerics)
            var options = TransportOptions()
            options.timeout = .seconds(10)
            // A POST goes out on a connection of its own on Linux; a GET on the shared one.
            for method in [HTTPRequest.Method.get, .post] {
                let request = HTTPRequest(
                    method: method,
                    scheme: "http",
                    authority: "127.0.0.1:\(sandbox.port)",
                    path: "/_test/status/401?header=" + (header ?? "")
                )
                let body = method == .post ? Data("{}".utf8) : nil
                let response = try await transport.send(request, body: body, options: options)
                #expect(response.response.status == .unauthorized)
                #expect(response.response.headerFields[.wwwAuthenticate] == challenge)
                #expect(String(decoding: response.body, as: UTF8.self) == #"{"status":401}"#)
            }
            let client = try makeClient(sandbox, transport)
            #expect(try await client.send(.echo(.get)).method == "GET")
        }
    }

    @Test(
        "Cancelling just as the answer arrives ends every request, one way or the other",
        .timeLimit(.minutes(2 * SanitizerRun.slowdown)),
        arguments: TransportUnderTest.allCases
    )
    func cancellationRacingTheAnswer(kind: TransportUnderTest) async throws {
        // On Linux URLSession's callbacks run on its work queue, where cancelling in place
        // would wait on the thread that is resuming the caller. Cancels spread over the
        // round trip hit every stage of it; a deadlock would hang this test.
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let endpoint = Endpoint<Data>(.get, "_test/bytes/4096")
            // Timed warm, fastest of five: the first call opens the connection, and a slow call
            // under a busy test run would stretch every one of the 200 waits below.
            _ = try await client.send(endpoint)
            var roundTrip = Duration.seconds(1)
            for _ in 0..<5 {
                roundTrip = min(roundTrip, try await ContinuousClock().measure { _ = try await client.send(endpoint) })
            }
            var cancelled = 0
            for step in 0..<200 {
                let task = Task { try await client.send(endpoint) }
                try await Task.sleep(for: roundTrip * 2 * Double(step) / 200)
                task.cancel()
                switch await task.result {
                case .success(let body):
                    #expect(body.count == 4096)
                case .failure(let error):
                    #expect(error is CancellationError, "\(error)")
                    cancelled += 1
                }
            }
            // The earliest cancels come before the request is even sent.
            #expect(cancelled > 0)
            // The transport is still usable afterwards.
            #expect(try await client.send(endpoint).count == 4096)
        }
    }

    @Test(
        "A call cancelled before it starts ends with CancellationError",
        .timeLimit(.minutes(2 * SanitizerRun.slowdown)),
        arguments: TransportUnderTest.allCases
    )
    func cancelledBeforeItStarts(kind: TransportUnderTest) async throws {
        // The cancellation handler then runs at once, racing the transport's own set-up. On Linux
        // URLSession could report the cancelled task's end before the transport was listening
        // for it, and the call waited forever; a thousand tries caught it nearly every run.
        try await withContract(kind) { sandbox, transport in
            let request = sandboxRequest(to: sandbox, "/_test/bytes/16")
            for _ in 0..<1000 {
                let call = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await transport.send(request, body: nil, options: TransportOptions())
                }
                let result = await call.result
                #expect(throws: CancellationError.self) { try result.get() }
            }
            let after = try await transport.send(request, body: nil, options: TransportOptions())
            #expect(after.body.count == 16)
        }
    }

    @Test("A same-origin redirect is followed with credentials kept", arguments: TransportUnderTest.allCases)
    func sameOriginRedirect(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.defaultHeaders = [.authorization: "Bearer same"] }
            let response = try await client.response(
                .echo(.get, "_test/redirect/302", query: ["to": "/_test/echo/landed"])
            )
            #expect(response.value.path == "/_test/echo/landed")
            #expect(response.value.header("authorization") == "Bearer same")
            #expect(response.url.path == "/_test/echo/landed")
        }
    }

    @Test(
        "A cross-origin redirect is followed with Authorization and Cookie stripped",
        arguments: TransportUnderTest.allCases
    )
    func crossOriginRedirect(kind: TransportUnderTest) async throws {
        try await withContract(kind) { first, transport in
            try await withSandbox { second in
                let client = try makeClient(first, transport) {
                    $0.defaultHeaders = [
                        .authorization: "Bearer secret-token", .cookie: "session=abc", .accept: "application/json",
                    ]
                }
                let target = second.baseURL.appendingPathComponent("_test/echo/elsewhere").absoluteString
                let response = try await client.response(.echo(.get, "_test/redirect/307", query: ["to": target]))
                #expect(response.url.port == second.port)
                #expect(response.value.path == "/_test/echo/elsewhere")
                #expect(response.value.header("authorization") == nil)
                #expect(response.value.header("cookie") == nil)
                #expect(response.value.header("accept") == "application/json")
            }
        }
    }

    @Test("303 after a POST becomes a GET without the body", arguments: TransportUnderTest.allCases)
    func seeOther(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let echo = try await client.send(
                .echo(.post, "_test/redirect/303", query: ["to": "/_test/echo/result"], body: .json(["a": 1]))
            )
            #expect(echo.method == "GET")
            #expect(echo.path == "/_test/echo/result")
            #expect(echo.bodyBytes == 0)
            #expect(echo.header("content-type") == nil)
        }
    }

    @Test("Redirects stop at the policy's limit", arguments: TransportUnderTest.allCases)
    func redirectLimit(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.redirectPolicy = RedirectPolicy(maxRedirects: 1) }
            let twice = "/_test/redirect/302?to=%2F_test%2Fecho%2Fend"
            let error = await apiError {
                _ = try await client.send(.echo(.get, "_test/redirect/302", query: ["to": twice]))
            }
            #expect(error?.code == .apiError)
            #expect(sandbox.counters().requestsByPath["/_test/echo/end"] == nil)
        }
    }

    @Test("A refused connection is a network error, even for a POST", arguments: TransportUnderTest.allCases)
    func connectionRefused(kind: TransportUnderTest) async throws {
        let stopped = try await Sandbox.start()
        await stopped.stop()
        try await kind.withTransport { transport in
            let client = try makeClient(stopped, transport)
            let started = ContinuousClock.now
            let error = await apiError { _ = try await client.send(Endpoint<JSONValue>(.post, "anything")) }
            #expect(error?.code == .network)
            #expect(error?.exitCode == 6)
            // Reported at once, not after makeClient's timeout (30 s, or 120 s under a sanitizer).
            #expect(ContinuousClock.now - started < .seconds(15 * SanitizerRun.slowdown))
        }
    }

    // Whole seconds: URLSession on Linux rounds its timeout to seconds (see the next test). The
    // server holds its answer until the sandbox stops, so only the timeout can end the request.
    @Test("A server that sends no head in time is a network error", arguments: TransportUnderTest.allCases)
    func timeout(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.timeout = .seconds(1) }
            let started = ContinuousClock.now
            let error = await apiError {
                _ = try await client.send(Endpoint<JSONValue>(.get, "_test/hold/head"))
            }
            #expect(error?.code == .network)
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(900), "\(elapsed)")
        }
    }

    // FoundationNetworking truncates `timeoutInterval` to whole seconds, so 0.9 s used to become 0
    // and fail every request within milliseconds. Timing out after the full 0.9 s can happen on a
    // loaded machine; timing out before it is the bug.
    @Test("A sub-second timeout lets a prompt answer through", arguments: TransportUnderTest.allCases)
    func subSecondTimeout(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.timeout = .milliseconds(900) }
            for delay in [0, 150] {
                let started = ContinuousClock.now
                do {
                    let value = try await client.send(Endpoint<JSONValue>(.get, "_test/delay/\(delay)"))
                    #expect(value["delayedMs"]?.intValue == delay)
                } catch let error as APIError {
                    let elapsed = ContinuousClock.now - started
                    #expect(elapsed >= .milliseconds(850), "timed out after \(elapsed): \(error)")
                }
            }
        }
    }

    // Wall-clock by nature: 100 ms gaps must never add up to the 5 s idle timeout although the
    // whole body takes longer than it. Under TSan and ASan, two busy cores have stretched a single
    // gap past 5 s, so this one is skipped there (the script says so); every other build runs it.
    @Test(
        "The timeout is an idle timeout while the body streams",
        .disabled(if: SanitizerRun.isActive, "wall-clock idle-timeout test; a sanitizer's slowdown stretches the gaps"),
        arguments: TransportUnderTest.allCases
    )
    func bodyTimeout(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            // A body that keeps arriving is not idle, however long it takes in total. The gaps are
            // far below the timeout so a busy test machine cannot stretch one past it.
            let patient = try makeClient(sandbox, transport) { $0.timeout = .seconds(5) }
            let started = ContinuousClock.now
            let slow = try await patient.send(
                Endpoint<Data>(
                    .get,
                    "_test/bytes/5200",
                    query: ["chunked": 1, "chunk_size": 100, "chunk_delay_ms": 100]
                )
            )
            #expect(slow.count == 5200)
            #expect(ContinuousClock.now - started > .seconds(5))
        }
    }

    @Test("A body that stops arriving is a network error", arguments: TransportUnderTest.allCases)
    func stalledBody(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            // The rest of the body is held until the sandbox stops: only the timeout can end this.
            let client = try makeClient(sandbox, transport) { $0.timeout = .seconds(1) }
            let error = await apiError {
                _ = try await client.send(
                    Endpoint<Data>(
                        .get,
                        "_test/bytes/2048",
                        query: ["chunked": 1, "chunk_size": 1024, "hold": "rest"]
                    )
                )
            }
            #expect(error?.code == .network)
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
            let get = await apiError { _ = try await client.send(Endpoint<JSONValue>(.get, "_test/script/broken")) }
            #expect(get?.code == .network)
            _ = try await client.send(.echo(.get))
            let post = await apiError {
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
                let error = await apiError {
                    _ = try await client.send(Endpoint<JSONValue>(.post, "_test/writes", body: body))
                }
                #expect(error?.code == .ambiguous, "round \(round)")
                // Not after the client's timeout, as when libcurl resent it without its body.
                #expect(ContinuousClock.now - started < .seconds(15 * SanitizerRun.slowdown), "round \(round)")
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
            let error = await apiError {
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
        let stopped = try await Sandbox.start()
        await stopped.stop()
        try await withContract(kind) { sandbox, transport in
            sandbox.script("closed", [.fault(.closeBeforeResponse)])
            let options = TransportOptions(timeout: .seconds(5 * SanitizerRun.slowdown))
            let refused = await transportError {
                _ = try await transport.send(
                    postRequest(to: stopped, "/anything"),
                    body: Data("{}".utf8),
                    options: options
                )
            }
            #expect(refused?.kind == .cannotConnect)
            #expect(refused?.requestMayHaveBeenSent == false)
            let closed = await transportError {
                _ = try await transport.send(
                    postRequest(to: sandbox, "/_test/script/closed"),
                    body: Data("{}".utf8),
                    options: options
                )
            }
            #expect(closed?.kind == .connectionLost)
            #expect(closed?.requestMayHaveBeenSent == true)
        }
    }

    @Test("Cancelling the task cancels the request with CancellationError", arguments: TransportUnderTest.allCases)
    func cancellation(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            // Held until the sandbox stops: only the cancellation can end these.
            let slowHead = Endpoint<Data>(.get, "_test/hold/head")
            let slowBody = Endpoint<Data>(
                .get,
                "_test/bytes/4096",
                query: ["chunked": 1, "chunk_size": 1024, "hold": "rest"]
            )
            for endpoint in [slowHead, slowBody] {
                let task = Task { try await client.send(endpoint) }
                try await Task.sleep(for: .milliseconds(200))
                task.cancel()
                let result = await task.result
                #expect(throws: CancellationError.self) { try result.get() }
            }
        }
    }

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

    @Test("1,000 sequential requests reuse one keep-alive connection", arguments: TransportUnderTest.allCases)
    func sequentialKeepAlive(kind: TransportUnderTest) async throws {
        let connections = ConnectionLog()
        let configuration = SandboxConfiguration(modules: [ConnectionProbe(log: connections)])
        try await withContract(kind, configuration) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let started = ContinuousClock.now
            for index in 0..<1000 {
                let answer = try await client.send(Endpoint<JSONValue>(.get, "loopback-probe/\(index)"))
                #expect(answer["index"]?.intValue == index)
            }
            let elapsed = ContinuousClock.now - started
            Measurements.record("\(kind.rawValue): 1,000 sequential requests in \(elapsed.formattedMilliseconds)")
            #expect(connections.requests == 1000)
            #expect(connections.distinctConnections <= 2, "\(connections.distinctConnections) connections")
        }
    }

    @Test(
        "Bodiless answers (204, 304, HEAD) end the exchange at once and keep reusing one connection",
        arguments: TransportUnderTest.allCases
    )
    func bodilessKeepAlive(kind: TransportUnderTest) async throws {
        let connections = ConnectionLog()
        let configuration = SandboxConfiguration(modules: [ConnectionProbe(log: connections)])
        try await withContract(kind, configuration) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let notModified = Endpoint<NoContent>(
                .get,
                "loopback-probe-empty/304",
                headers: [.ifNoneMatch: "\"probe\""]
            )
            for round in 0..<300 {
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
            #expect(connections.requests == 300)
            #expect(connections.distinctConnections <= 2, "\(connections.distinctConnections) connections")
        }
    }

    @Test("64 concurrent requests through one client all get their own answers", arguments: TransportUnderTest.allCases)
    func concurrentRequests(kind: TransportUnderTest) async throws {
        let connections = ConnectionLog()
        let configuration = SandboxConfiguration(modules: [ConnectionProbe(log: connections)])
        try await withContract(kind, configuration) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
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

/// A POST to `path` on `sandbox`, for tests that talk to a transport directly.
func postRequest(to sandbox: Sandbox, _ path: String) -> HTTPRequest {
    HTTPRequest(
        method: .post,
        scheme: "http",
        authority: "127.0.0.1:\(sandbox.port)",
        path: path,
        headerFields: [.contentType: "application/json"]
    )
}

/// Runs `body` and returns the TransportError it throws, or nil.
func transportError(_ body: () async throws -> Void) async -> TransportError? {
    do {
        try await body()
        return nil
    } catch let error as TransportError {
        return error
    } catch {
        return nil
    }
}

/// A request for `path` on `sandbox`, as a transport receives it from the client.
func sandboxRequest(to sandbox: Sandbox, _ path: String, method: HTTPRequest.Method = .get) -> HTTPRequest {
    HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(sandbox.port)", path: path)
}

/// Opens a connection to `sandbox` first, so a timed exchange measures the exchange and not
/// connecting on a machine busy with the rest of the suite.
func warmUp(_ sandbox: Sandbox, _ transport: any HTTPTransport) async throws {
    let response = try await transport.send(
        sandboxRequest(to: sandbox, "/_test/echo"),
        body: nil,
        options: TransportOptions()
    )
    #expect(response.response.status == .ok)
}

/// Runs `body` with a fresh sandbox and a fresh transport of `kind`, and tears both down.
func withContract<T: Sendable>(
    _ kind: TransportUnderTest,
    _ configuration: SandboxConfiguration = SandboxConfiguration(),
    _ body: (Sandbox, any HTTPTransport) async throws -> T
) async throws -> T {
    try await withSandbox(configuration) { sandbox in
        try await kind.withTransport { transport in try await body(sandbox, transport) }
    }
}

extension Duration {
    var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.0f ms", milliseconds)
    }
}
