import APISandbox
import AsyncHTTPClient
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPTypes
import Testing

/// What only the AsyncHTTPClient transport has: client ownership and shutdown.
@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    @Test("A borrowed client keeps running after the transport is shut down")
    func borrowedClient() async throws {
        let httpClient = HTTPClient(configuration: AsyncHTTPClientTransport.recommendedConfiguration)
        do {
            try await withSandbox { sandbox in
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

    @Test("A borrowed client that follows redirects itself is caught, not trusted")
    func borrowedClientFollowingRedirects() async throws {
        let httpClient = HTTPClient(configuration: HTTPClient.Configuration())
        do {
            try await withSandbox { sandbox in
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
        try await withSandbox { sandbox in
            let transport = AsyncHTTPClientTransport()
            let client = try makeClient(sandbox, transport)
            _ = try await client.send(.echo(.get))
            try await transport.shutdown()
            try await transport.shutdown()
            let error = await transportError {
                _ = try await transport.send(
                    postRequest(to: sandbox, "/_test/echo"),
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
        try await withSandbox { sandbox in
            try await AsyncHTTPClientTransport.shared.shutdown()
            let client = try makeClient(sandbox, AsyncHTTPClientTransport.shared)
            let echo = try await client.send(.echo(.get))
            #expect(echo.method == "GET")
        }
    }
}
