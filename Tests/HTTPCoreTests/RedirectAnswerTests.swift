import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

@Suite("A call that follows no redirect, a call that is not JSON, an error in plain text")
struct RedirectAnswerTests {
    @Test(
        "Under the operation's own RedirectPolicy.none a redirect is the call's answer",
        arguments: [301, 302, 303, 307, 308]
    )
    func operationTakesRedirect(status: Int) async throws {
        let transport = ScriptedTransport([.status(status, headers: [.location: "https://cdn.example.com/f?sig=1"])])
        let response = try await makeClient(transport).response(
            Endpoint<Data>(.get, "files/1", operation: OperationMetadata(redirects: RedirectPolicy.none))
        )
        #expect(response.status.code == status)
        #expect(response.headers[.location] == "https://cdn.example.com/f?sig=1")
        #expect(transport.requests.count == 1, "the Location is not dialled")
    }

    @Test("Under the client's RedirectPolicy.none, or for any other 3xx, a redirect is an error")
    func clientRefusesRedirect() async throws {
        let transport = ScriptedTransport([.status(302, headers: [.location: "https://cdn.example.com/f"])])
        let client = try makeClient(transport) { $0.redirectPolicy = .none }
        let error = await expectAPIError(.apiError) { _ = try await client.send(Endpoint<Data>(.get, "files/1")) }
        #expect(error?.httpStatus == 302)

        let notModified = ScriptedTransport([.status(300)])
        let asking = Endpoint<Data>(.get, "files/1", operation: OperationMetadata(redirects: RedirectPolicy.none))
        await expectAPIError(.apiError) { _ = try await makeClient(notModified).send(asking) }
    }

    @Test("defaultAccept nil sends no Accept; the default asks for JSON; an endpoint's own wins")
    func defaultAccept() async throws {
        let transport = ScriptedTransport([.status(200), .status(200), .status(200)])
        let files = try makeClient(transport) { $0.defaultAccept = nil }
        _ = try await files.send(Endpoint<Data>(.get, "files/1"))
        _ = try await files.send(Endpoint<Data>(.get, "files/1", headers: [.accept: "image/png"]))
        _ = try await makeClient(transport).send(Endpoint<Data>(.get, "files/1"))
        #expect(transport.requests.map { $0.header("Accept") } == [nil, "image/png", "application/json"])
    }

    @Test("A short plain-text error body is the error's message, on one line, without control characters")
    func plainTextBody() async throws {
        let transport = ScriptedTransport([
            .status(401, headers: [.contentType: "text/plain"], body: "OAuth token expired (old age)\n"),
            .status(503, body: "Down for\r\n maintenance \u{1B}[31mnow"),
            .status(502, headers: [.contentType: "text/html"], body: "<html><body>Bad gateway</body></html>"),
            .status(500, body: String(repeating: "x", count: 600)),
        ])
        let client = try makeClient(transport) { $0.retry = .none }
        let expired = await expectAPIError(.authRequired) { _ = try await client.send(Endpoint<Data>(.get, "a")) }
        #expect(expired?.message == "OAuth token expired (old age)")
        let down = await expectAPIError(.apiError) { _ = try await client.send(Endpoint<Data>(.get, "a")) }
        #expect(down?.message == "Down for maintenance [31mnow")
        let html = await expectAPIError(.apiError) { _ = try await client.send(Endpoint<Data>(.get, "a")) }
        #expect(html?.message == "Bad Gateway")
        let long = await expectAPIError(.apiError) { _ = try await client.send(Endpoint<Data>(.get, "a")) }
        #expect(long?.message == "Internal Server Error")
    }
}
