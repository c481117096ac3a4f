import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

@Suite("Transport errors")
struct TransportErrorTests {
    @Test(
        "A URL the transport cannot use is a usage error, sent once and never retried",
        arguments: [HTTPRequest.Method.get, .post]
    )
    func invalidURL(method: HTTPRequest.Method) async throws {
        let recorder = HookRecorder()
        let transport = ScriptedTransport([.invalidURL, .json([:]), .json([:])])
        let client = try makeClient(transport, baseURL: "http://[::1]:8080") { $0.hooks = recorder }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(method, "x")) }
        #expect(error?.code == .usage)
        #expect(error?.exitCode == 64)
        #expect(error?.message == "Cannot send a request to [::1]:8080: the transport cannot use this URL.")
        #expect(error?.isRetryable == false)
        #expect(transport.requests.count == 1)
        #expect(recorder.events.retries.isEmpty)
    }

    @Test("A request whose fields make no URL fails as usage before anything is sent")
    func requestWithoutURL() async throws {
        var request = HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com/x")))
        request.path = nil
        let error = await #expect(throws: TransportError.self) {
            _ = try await URLSessionTransport().send(request, body: nil, options: TransportOptions())
        }
        #expect(error?.kind == .invalidURL)
        #expect(error?.requestMayHaveBeenSent == false)
        let mapped = ErrorMapping.apiError(from: try #require(error), isIdempotent: true) as? APIError
        #expect(mapped?.code == .usage)
    }

    @Test(
        "A refused connection names the host and port it tried",
        arguments: [
            ("https://api.example.com/v1/x", "api.example.com:443"),
            ("http://127.0.0.1:8080/x", "127.0.0.1:8080"),
            ("http://localhost/x", "localhost:80"),
            ("http://[::1]:9000/x", "[::1]:9000"),
        ]
    )
    func refusedNamesHostAndPort(url: String, named: String) async throws {
        let target = try #require(URL(string: url))
        let refused = TransportError.cannotConnect(to: target, "the connection was refused")
        #expect(refused.message == "Could not connect to \(named) (the connection was refused).")
        #expect(refused.kind == .cannotConnect)
        #expect(refused.requestMayHaveBeenSent == false)

        // Through a client the message reaches the caller as a retryable network error.
        let transport = ScriptedTransport { recorded in
            throw TransportError.cannotConnect(to: recorded.url, "the connection was refused")
        }
        let client = try makeClient(transport, baseURL: "https://api.example.com") { $0.retry = .none }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .network)
        #expect(error?.message == "Could not connect to api.example.com:443 (the connection was refused).")
    }
}
