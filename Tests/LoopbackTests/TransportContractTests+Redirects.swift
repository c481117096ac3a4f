import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension TransportContractTests {
    @Test(
        "The transport alone sends one hop: a redirect comes back as the 3xx it is",
        arguments: TransportUnderTest.allCases
    )
    func transportSendsOneHop(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let request = sandboxRequest(to: sandbox.port, "/_test/redirect/302?to=%2F_test%2Fecho%2Flanded")
            let result = try await transport.send(request, body: nil, options: TransportOptions())
            #expect(result.response.status.code == 302)
            #expect(result.response.headerFields[.location] == "/_test/echo/landed")
            #expect(result.url.path == "/_test/redirect/302")
            #expect(sandbox.counters().requestsByPath["/_test/echo/landed"] == nil)
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
            try await Sandbox.withRunning { second in
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
        try await withContractClient(kind) { sandbox, client in
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
            let error = await caughtAPIError {
                _ = try await client.send(.echo(.get, "_test/redirect/302", query: ["to": twice]))
            }
            #expect(error?.code == .apiError)
            #expect(sandbox.counters().requestsByPath["/_test/echo/end"] == nil)
        }
    }
}
