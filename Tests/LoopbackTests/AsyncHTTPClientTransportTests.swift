import APISandbox
import AsyncHTTPClient
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPTypes
import Hummingbird
import InMemoryTracing
import Testing

/// What only the AsyncHTTPClient transport has: client ownership and shutdown, and the details of
/// its response collection (one timer for the head and every body gap, limits, decompression)
/// that the contract suite checks only through their outcome.
@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    @Test("A borrowed client keeps running after the transport is shut down")
    func borrowedClient() async throws {
        let httpClient = HTTPClient(configuration: AsyncHTTPClientTransport.recommendedConfiguration)
        do {
            try await Sandbox.withRunning { sandbox in
                let transport = AsyncHTTPClientTransport(client: httpClient)
                let client = try makeClient(sandbox, transport)
                _ = try await client.send(.echo(.get))
                try await transport.shutdown()
                let echo = try await client.send(.echo(.get, "_test/echo/still-running"))
                #expect(echo.path == "/_test/echo/still-running")
            }
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }

    @Test("AsyncHTTPClient's own tracing is off, so no span of its records a URL's secret", arguments: [false, true])
    func ownTracingOff(recommended: Bool) async throws {
        let tracer = InMemoryTracer()
        var configuration = recommended ? AsyncHTTPClientTransport.recommendedConfiguration : HTTPClient.Configuration()
        if !recommended { configuration.tracing.tracer = tracer }
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        do {
            #expect(transport.client.tracer == nil)
            try await Sandbox.withRunning { sandbox in
                let request = HTTPRequest(
                    method: .get,
                    scheme: "http",
                    authority: "127.0.0.1:\(sandbox.port)",
                    path: "/_test/echo?access_token=s3cret-in-url"
                )
                _ = try await transport.send(request, body: nil, options: TransportOptions())
            }
            #expect(tracer.finishedSpans.isEmpty)
        } catch {
            try await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
    }

    @Test("A borrowed client that follows redirects itself is caught, not trusted")
    func borrowedClientFollowingRedirects() async throws {
        let httpClient = HTTPClient(configuration: HTTPClient.Configuration())
        do {
            try await Sandbox.withRunning { sandbox in
                let transport = AsyncHTTPClientTransport(client: httpClient)
                let request = HTTPRequest(
                    method: .get,
                    scheme: "http",
                    authority: "127.0.0.1:\(sandbox.port)",
                    path: "/_test/redirect/302?to=%2F_test%2Fecho"
                )
                let error = await transportError {
                    _ = try await transport.send(request, body: nil, options: TransportOptions())
                }
                #expect(error?.kind == .redirectRefused)
            }
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }

    @Test("An owned client is shut down once; requests after it fail without being sent")
    func ownedShutdown() async throws {
        try await Sandbox.withRunning { sandbox in
            let transport = AsyncHTTPClientTransport()
            let client = try makeClient(sandbox, transport)
            _ = try await client.send(.echo(.get))
            try await transport.shutdown()
            try await transport.shutdown()
            let error = await transportError {
                _ = try await transport.send(
                    postRequest(to: sandbox.port, "/_test/echo"),
                    body: nil,
                    options: TransportOptions()
                )
            }
            #expect(error?.requestMayHaveBeenSent == false)
            #expect(sandbox.counters().totalRequests == 1)
        }
    }

    @Test("The scoped helper shuts its client down when the body throws")
    func scopedShutdownOnThrow() async throws {
        struct Planned: Error {}
        let escaped = Locked<AsyncHTTPClientTransport?>(nil)
        await #expect(throws: Planned.self) {
            try await withAsyncHTTPClientTransport { transport in
                escaped.withLock { $0 = transport }
                throw Planned()
            }
        }
        let transport = try #require(escaped.withLock { $0 })
        await #expect(throws: HTTPClientError.alreadyShutdown) {
            _ = try await transport.client.execute(HTTPClientRequest(url: "http://127.0.0.1:9/"), timeout: .seconds(1))
        }
    }

    @Test("The shared transport works and cannot be shut down")
    func sharedTransport() async throws {
        try await Sandbox.withRunning { sandbox in
            try await AsyncHTTPClientTransport.shared.shutdown()
            let client = try makeClient(sandbox, AsyncHTTPClientTransport.shared)
            let echo = try await client.send(.echo(.get))
            #expect(echo.method == "GET")
        }
    }

    // MARK: Timeouts and cancellation

    // The server holds its answer until the test releases it, so the timeout is the only way this
    // request can end. Over the wire only "not before the timeout" holds on a busy machine.
    @Test("A head that does not arrive in time is timedOut, not before the timeout")
    func headTimeout() async throws {
        try await withAHCContract { sandbox, transport in
            let started = ContinuousClock.now
            let error = await transportError {
                _ = try await transport.send(
                    sandboxRequest(to: sandbox.port, "/_test/hold/head"),
                    body: nil,
                    options: TransportOptions(timeout: .seconds(1))
                )
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.kind == .timedOut)
            #expect(error?.requestMayHaveBeenSent == true)
            #expect(error?.message == "The server did not answer in time.")
            #expect(elapsed >= .milliseconds(950), "\(elapsed)")
        }
    }

    // Which timer message comes (head or body) depends on the head and first part arriving within
    // the timeout: wall-clock, so the timeout is long enough for a loaded 2-core CI host. Sanitizer runs have held the head back past 4 s, so it is skipped
    // there; the contract's stalled-body test keeps this timer path under the sanitizers. The rest
    // of the body is held until the test releases it, so only the timeout can end the request.
    @Test(
        "A body that stalls after its first part is timedOut with the body's message",
        .disabled(if: SanitizerRun.isActive, "wall-clock: the head must beat the timeout; a sanitizer delays it")
    )
    func stalledAfterFirstPart() async throws {
        try await withAHCContract { sandbox, transport in
            try await warmUp(sandbox.port, transport)
            let started = ContinuousClock.now
            let error = await transportError {
                _ = try await transport.send(
                    sandboxRequest(to: sandbox.port, "/_test/bytes/2048?chunked=1&chunk_size=1024&hold=rest"),
                    body: nil,
                    options: TransportOptions(timeout: .seconds(5))
                )
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.kind == .timedOut)
            #expect(error?.message == "The server stopped sending the response body.")
            #expect(elapsed >= .milliseconds(4950), "\(elapsed)")
        }
    }

    // Wall-clock by nature, like the contract's idle-timeout test: 100 ms gaps for nine seconds,
    // longer than the timeout, so the request's one timer must set itself again and again. The
    // sandbox runs in a process of its own, so its gaps keep their length while this process is
    // busy with the rest of the suite.
    @Test(
        "A body that keeps arriving outlives its timeout",
        .disabled(if: SanitizerRun.isActive, "wall-clock idle-timeout test; a sanitizer's slowdown stretches the gaps")
    )
    func steadyBodyOutlivesTimeouts() async throws {
        try await withSandboxProcess { port in
            try await TransportUnderTest.asyncHTTPClient.withTransport { transport in
                try await warmUp(port, transport)
                let started = ContinuousClock.now
                let response = try await transport.send(
                    sandboxRequest(to: port, "/_test/bytes/9000?chunked=1&chunk_size=100&chunk_delay_ms=100"),
                    body: nil,
                    options: TransportOptions(timeout: .seconds(8))
                )
                #expect(ContinuousClock.now - started > .seconds(8))
                #expect(response.body.count == 9000)
                #expect(response.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
            }
        }
    }

    // The requests share one event loop: a timeout must hold for each request on its own, whatever
    // another request's is. The server answers neither until the test releases them, so only a
    // timeout can end the impatient one.
    @Test("A short timeout holds while a request with a long one runs on the same event loop")
    func mixedTimeoutsOnOneLoop() async throws {
        // A single event loop is a group of one.
        let loop = HTTPClient.defaultEventLoopGroup.next()
        try await Sandbox.withRunning { sandbox in
            try await withAsyncHTTPClientTransport(eventLoopGroup: loop) { transport in
                let request = sandboxRequest(to: sandbox.port, "/_test/hold/both")
                let patient = Task {
                    try await transport.send(request, body: nil, options: TransportOptions(timeout: .seconds(600)))
                }
                try await sandbox.waitUntilWaiting(onHold: "both")
                let started = ContinuousClock.now
                let error = await transportError {
                    _ = try await transport.send(request, body: nil, options: TransportOptions(timeout: .seconds(1)))
                }
                let elapsed = ContinuousClock.now - started
                #expect(error?.kind == .timedOut)
                #expect(elapsed >= .milliseconds(950), "\(elapsed)")
                // Nowhere near the patient request's ten minutes.
                #expect(elapsed < .seconds(60), "\(elapsed)")
                patient.cancel()
                _ = await patient.result
            }
        }
    }

    // The server holds the head, or the rest of the body, until the test releases it (the sandbox
    // stops only after the checks), so only the cancellation can end the request.
    @Test("Cancelling ends the request, waiting for the head or reading the body", arguments: [true, false])
    func promptCancellation(inBody: Bool) async throws {
        try await withAHCContract { sandbox, transport in
            let path = inBody ? "/_test/bytes/2048?chunked=1&chunk_size=1024&hold=rest" : "/_test/hold/head"
            let request = sandboxRequest(to: sandbox.port, path)
            let task = Task { try await transport.send(request, body: nil, options: TransportOptions()) }
            try await sandbox.waitUntilWaiting(onHold: inBody ? "rest" : "head")
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    // MARK: Bodies

    @Test("A gzip body arrives decompressed, and the limit counts the decompressed bytes")
    func gzipBody() async throws {
        try await withAHCContract(SandboxConfiguration(modules: [ProbeRoutes()])) { sandbox, transport in
            let request = sandboxRequest(to: sandbox.port, "/ahc-probe/gzip")
            let response = try await transport.send(request, body: nil, options: TransportOptions())
            #expect(response.body == Data(repeating: UInt8(ascii: "x"), count: ProbeRoutes.gzipExpandsTo))

            // 132 bytes on the wire fit the limit; the 100,000 they expand to do not.
            let error = await transportError {
                _ = try await transport.send(request, body: nil, options: TransportOptions(maxBodySize: 10_000))
            }
            #expect(error?.kind == .bodyLimitExceeded(limit: 10_000))
        }
    }
}

/// Routes only these tests need: a gzip-encoded body and an error body streamed without a length.
struct ProbeRoutes: SandboxModule {
    /// The hold that keeps the error stream's rest back.
    static let errorStreamHold = "error-stream"

    /// `"x"` × 100,000, gzip-compressed to 132 bytes.
    static let gzip = Data(
        base64Encoded: "H4sIAAAAAAACA+3BMQEAAADCoNqLbw0PoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIBXA3ERB/6ghgEA"
    )
    static let gzipExpandsTo = 100_000

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.get("ahc-probe/gzip") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain", .contentEncoding: "gzip"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.gzip ?? Data()))
            )
        }
        router.get("ahc-probe/error-stream") { _, _ -> Response in
            Response(
                status: .internalServerError,
                headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "e"), count: 1024))
                    try await state.waitForRelease(of: Self.errorStreamHold)
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "e"), count: 63 * 1024))
                    try await writer.finish(nil)
                }
            )
        }
    }
}

/// A GET of `path` (query included) on `sandbox`, for tests that talk to a transport directly.
/// Runs `body` with a fresh sandbox and a fresh AsyncHTTPClient transport, and tears both down.
private func withAHCContract(
    _ configuration: SandboxConfiguration = SandboxConfiguration(),
    _ body: (Sandbox, any HTTPTransport) async throws -> Void
) async throws {
    try await withContract(.asyncHTTPClient, configuration, body)
}
