import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension AuthRefreshTests {
    @Test("Without a refresh token, a 401 means sign-in required and no refresh is attempted")
    func noRefreshToken() async throws {
        let api = TokenAPI()
        api.revokeAccessToken()
        let (client, auth, transport) = try setUp(api, credentials: TokenCredentials(accessToken: "access-1"))
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .authRequired)
        #expect(api.refreshes.value == 0)
        #expect(transport.requests.count == 1)
        #expect(await auth.isSignInRequired)
    }

    @Test("Without credentials, requests fail with auth_required and nothing is sent")
    func noCredentials() async throws {
        let api = TokenAPI()
        let (client, _, transport) = try setUp(api, credentials: nil)
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .authRequired)
        #expect(transport.requests.isEmpty)
    }

    @Test("Credentials load from the store on first use; refreshed ones are saved back")
    func storeRoundTrip() async throws {
        let api = TokenAPI()
        api.revokeAccessToken()
        let store = InMemoryCredentialStore(TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"))
        let (client, _, _) = try setUp(api, credentials: nil, store: store)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let saved = await store.load()
        #expect(saved?.accessToken == "access-2")
        #expect(saved?.refreshToken == "refresh-2")
    }

    @Test("JSON refresh body, absolute refresh URL, extra fields and a custom response shape")
    func customRefreshShape() async throws {
        let decoder = CredentialsDecoder { body, receivedAt in
            let value = try JSONValue(parsing: body)
            guard let token = value["data"]?["token"]?.stringValue else { throw CredentialsDecoder.Failure() }
            return TokenCredentials(
                accessToken: token,
                refreshToken: value["data"]?["renew"]?.stringValue,
                expiresIn: .seconds(60),
                receivedAt: receivedAt
            )
        }
        let auth = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "old", refreshToken: "r-1"),
            refresh: RefreshEndpoint(
                path: "https://auth.example.com/token",
                encoding: .json,
                refreshTokenField: "renew",
                extraFields: ["client_id": "app"]
            ),
            decoder: decoder
        )
        let transport = ScriptedTransport { request in
            if request.url.host == "auth.example.com" {
                return reply(request, json: ["data": ["token": "new", "renew": "r-2"]])
            }
            return request.header("Authorization") == "Bearer new" ? reply(request) : reply(request, status: 401)
        }
        let client = try makeClient(transport) { $0.auth = auth }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let refresh = try #require(transport.requests.first { $0.url.host == "auth.example.com" })
        #expect(refresh.url.absoluteString == "https://auth.example.com/token")
        #expect(refresh.header("Content-Type") == "application/json")
        let body = try JSONValue(parsing: refresh.body ?? Data())
        #expect(body == ["client_id": "app", "renew": "r-1"])
        #expect(await auth.credentials?.refreshToken == "r-2")
        #expect(auth.redactor.secretQueryParameters.contains("renew"))
    }

    @Test("A 200 refresh response without credentials is a rejection (sign-in required)")
    func undecodableRefresh() async throws {
        let api = TokenAPI()
        api.revokeAccessToken()
        api.refreshOverride.withLock { $0 = { reply($0, json: ["unexpected": true]) } }
        let (client, auth, _) = try setUp(api)
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .authRequired)
        #expect(await auth.isSignInRequired)
    }

    @Test("A custom auth-failure signal in a 200 body triggers the refresh")
    func customSignal() async throws {
        let signal = AuthFailureSignal { String(decoding: $0.body, as: UTF8.self).contains("TOKEN_EXPIRED") }
        let auth = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "old", refreshToken: "r"),
            refresh: RefreshEndpoint(path: "oauth/token"),
            authFailure: .unauthorized.or(signal)
        )
        let transport = ScriptedTransport { request in
            if request.url.path.hasSuffix("/oauth/token") { return reply(request, json: ["access_token": "new"]) }
            return request.header("Authorization") == "Bearer new"
                ? reply(request, json: ["ok": true]) : reply(request, json: ["status": "TOKEN_EXPIRED"])
        }
        let client = try makeClient(transport) { $0.auth = auth }
        let value = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(value["ok"] == true)
        // The server kept the refresh token (omitted it), so the old one stays.
        #expect(await auth.credentials?.refreshToken == "r")
    }
}
