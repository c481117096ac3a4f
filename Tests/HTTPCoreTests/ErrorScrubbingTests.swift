import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// An error answer that quotes back a credential the request carried: the error the caller gets,
/// and so every log line and CLI report made from it, shows a placeholder instead.
@Suite("Credentials quoted in error answers")
struct ErrorScrubbingTests {
    @Test("A bearer token quoted in a 401's message, hint and payload is replaced")
    func bearerToken() async throws {
        let token = "tok-QUOTED-7d1e"
        let body: JSONValue = [
            "error": .string("The token \(token) has expired"),
            "error_description": .string("Sign in again; \(token) cannot be renewed"),
        ]
        let transport = ScriptedTransport([.json(body, status: 401)])
        let client = try makeClient(transport) { $0.auth = BearerTokenAuth(token: token) }
        let error = try #require(await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "me")) })
        #expect(error.code == .authRequired)
        #expect(error.message == "The token \(Redactor.placeholder) has expired")
        #expect(error.hint == "Sign in again; \(Redactor.placeholder) cannot be renewed")
        #expect(!String(describing: error.details.payload).contains(token))
        #expect(!String(describing: error).contains(token))
    }

    @Test("A secret header's whole value, a cookie's value and a secret query parameter are replaced in field errors")
    func headersCookiesAndQuery() async throws {
        let transport = ScriptedTransport([
            .json(
                [
                    "errors": [
                        "api_key": ["KEY-quoted-5521 is not a key of this school"],
                        "session": ["cookie abc-SESSION-9f is stale"],
                        "access_token": ["query-TOKEN-33aa was refused"],
                    ]
                ],
                status: 422
            )
        ])
        let client = try makeClient(transport) {
            $0.redactor.addSecretHeader(HTTPField.Name("X-API-Key")!)
            $0.defaultHeaders[HTTPField.Name("X-API-Key")!] = "KEY-quoted-5521"
            $0.defaultHeaders[.cookie] = "theme=dark; session=abc-SESSION-9f"
        }
        let error = try #require(
            await caughtAPIError {
                _ = try await client.send(
                    Endpoint<JSONValue>(.get, "items", query: ["access_token": "query-TOKEN-33aa"])
                )
            }
        )
        #expect(error.code == .validation)
        let messages = error.details.fieldErrors.flatMap(\.messages)
        #expect(messages.count == 3)
        for secret in ["KEY-quoted-5521", "abc-SESSION-9f", "query-TOKEN-33aa"] {
            #expect(!error.message.contains(secret))
            #expect(!messages.joined().contains(secret))
            #expect(!String(describing: error.details.payload).contains(secret))
        }
        #expect(messages.contains("\(Redactor.placeholder) is not a key of this school"))
    }

    @Test("A token that would be cut at the message's 500-character end leaves no part of it")
    func tokenAtTheCut() async throws {
        let token = "tok-LONG-cut-0123456789abcdef"
        let message = String(repeating: "x", count: 490) + " " + token + " is not valid"
        let transport = ScriptedTransport([.json(["error": .string(message)], status: 401)])
        let client = try makeClient(transport) { $0.auth = BearerTokenAuth(token: token) }
        let error = try #require(await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "me")) })
        #expect(!error.message.contains(String(token.prefix(6))))
    }

    @Test("An error retry gives up on (a Retry-After past the deadline) is scrubbed too")
    func retryGivesUp() async throws {
        let token = "tok-RETRY-4b2c"
        let transport = ScriptedTransport([
            .json(["error": .string("Slow down, \(token)")], status: 429, headers: [.retryAfter: "3600"])
        ])
        let client = try makeClient(transport) {
            $0.auth = BearerTokenAuth(token: token)
            $0.deadline = .seconds(10)
        }
        let error = try #require(await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "me")) })
        #expect(error.code == .rateLimit)
        #expect(!String(describing: error).contains(token))
        #expect(!String(describing: error.details.payload).contains(token))
    }

    @Test("A secret form field's value quoted in an error is replaced, as the server decoded it; other fields are kept")
    func formBody() async throws {
        let transport = ScriptedTransport([
            .json(
                [
                    "error": "invalid_client",
                    "error_description": "Client secret sec Ret/42 is wrong for client app-77; password hunter two?",
                ],
                status: 401
            )
        ])
        let client = try makeClient(transport) { $0.redactor.addSecretQueryParameter("apiPassword") }
        let form: QueryParameters = [
            "client_id": "app-77", "client_secret": "sec Ret/42", "apipassword": "hunter two?",
        ]
        let error = try #require(
            await caughtAPIError {
                _ = try await client.send(Endpoint<JSONValue>(.post, "token", body: .form(form)))
            }
        )
        #expect(
            error.hint
                == "Client secret \(Redactor.placeholder) is wrong for client app-77; password \(Redactor.placeholder)"
        )
        #expect(!String(describing: error.details.payload).contains("Ret/42"))
        #expect(!String(describing: error.details.payload).contains("hunter"))
    }

    @Test("Without credentials the server's words are kept as they are")
    func nothingToScrub() async throws {
        let transport = ScriptedTransport([.json(["error": "Widget 4411 is archived"], status: 404)])
        let client = try makeClient(transport)
        let error = try #require(await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "w")) })
        #expect(error.message == "Widget 4411 is archived")
    }
}
