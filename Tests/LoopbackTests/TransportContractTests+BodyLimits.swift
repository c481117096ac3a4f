import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension TransportContractTests {
    @Test(
        "A body over the limit fails with limit_exceeded, with or without Content-Length",
        arguments: TransportUnderTest.allCases
    )
    func bodyLimit(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.maxResponseBodySize = 1024 * 1024 }
            for query: QueryParameters in [[:], ["chunked": 1, "chunk_size": 65536]] {
                let error = await caughtAPIError {
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
                    sandboxRequest(to: sandbox.port, "/announced-large"),
                    body: nil,
                    options: TransportOptions(maxBodySize: 1024)
                )
            }
            #expect(error?.kind == .bodyLimitExceeded(limit: 1024))
            #expect(ContinuousClock.now - started < .seconds(60))
            sandbox.release(AnnouncedLengthRoute.hold)
            // HEAD announces a length too and has no body: nothing to refuse.
            let head = try await transport.send(
                sandboxRequest(to: sandbox.port, "/_test/bytes/\(8 * 1024 * 1024)", method: .head),
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
            let error = await caughtAPIError {
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
            let error = await caughtAPIError {
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

    // "As it streams": the server sends one part and holds the rest until the test releases it,
    // after the response is in. A transport that waited for the end would see the rest only when
    // the hold gives out (two minutes), which the elapsed-time check catches with a wide margin.
    @Test(
        "An error body without Content-Length is cut at the error-body limit as it streams",
        .timeLimit(.minutes(1)),
        arguments: TransportUnderTest.allCases
    )
    func streamedErrorBodyCut(kind: TransportUnderTest) async throws {
        try await withContract(kind, SandboxConfiguration(modules: [ProbeRoutes()])) { sandbox, transport in
            var options = TransportOptions()
            options.maxErrorBodySize = 100
            let started = ContinuousClock.now
            let response = try await transport.send(
                sandboxRequest(to: sandbox.port, "/ahc-probe/error-stream"),
                body: nil,
                options: options
            )
            #expect(response.response.status.code == 500)
            #expect(response.body == Data(repeating: UInt8(ascii: "e"), count: 100))
            #expect(ContinuousClock.now - started < .seconds(60))
            sandbox.release(ProbeRoutes.errorStreamHold)
            // The connection the cut closed is not reused for the next request.
            let echo = sandboxRequest(to: sandbox.port, "/_test/echo")
            let next = try await transport.send(echo, body: nil, options: options)
            #expect(next.response.status == .ok)
        }
    }
}
