import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A fake API and token endpoint: the token endpoint rotates `access-N`/`refresh-N`; the API
/// answers 200 to the current access token and 401 to anything else.
final class RotatingServer: Sendable {
    private struct State {
        var issued = 1
        var access = "access-1"
        var refresh = "refresh-1"
    }

    private let state = Locked(State())
    let refreshes = Locked(0)
    /// What refresh answers leave out.
    let omits: Set<String>
    /// Called before each refresh is answered.
    let beforeRefresh: @Sendable () async -> Void

    init(omits: Set<String> = [], beforeRefresh: @escaping @Sendable () async -> Void = {}) {
        self.omits = omits
        self.beforeRefresh = beforeRefresh
    }

    func expireAccessToken() { state.withLock { $0.access = "revoked" } }

    func handle(_ request: ScriptedTransport.RecordedRequest) async throws -> TransportResponse {
        func answer(_ status: Int, _ body: JSONValue) -> TransportResponse {
            TransportResponse(
                response: HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]),
                body: body.encoded(),
                url: request.url
            )
        }
        if request.url.path == "/token" {
            refreshes.withLock { $0 += 1 }
            await beforeRefresh()
            let presented = request.field("refresh_token")
            let issued = state.withLock { state -> (String, String)? in
                guard presented == state.refresh else { return nil }
                state.issued += 1
                state.access = "access-\(state.issued)"
                state.refresh = "refresh-\(state.issued)"
                return (state.access, state.refresh)
            }
            guard let (access, refresh) = issued else { return answer(400, ["error": "invalid_grant"]) }
            var body: [String: JSONValue] = ["access_token": .string(access), "expires_in": 3600]
            if !omits.contains("refresh_token") { body["refresh_token"] = .string(refresh) }
            if !omits.contains("resource") { body["resource"] = .string(request.field("resource") ?? "none") }
            return answer(200, .object(body))
        }
        let current = state.withLock { $0.access }
        return request.header("Authorization") == "Bearer \(current)"
            ? answer(200, ["ok": true]) : answer(401, ["error": "expired"])
    }
}

@Suite("Refresh through RefreshingTokenAuth")
struct RefreshTests {
    private func setUp(
        _ server: RotatingServer,
        credentials: TokenCredentials,
        oauthServer: AuthorizationServer = standardServer,
        registration: OAuthClientRegistration = publicClient,
        store: (any CredentialStore)? = nil,
        clock: TestClock = TestClock()
    ) throws -> (Client, RefreshingTokenAuth, ScriptedTransport) {
        let transport = ScriptedTransport(clock: clock) { try await server.handle($0) }
        var tokenServer = oauthServer
        tokenServer.tokenEndpoint = url("https://auth.example.com/token")
        let oauth = makeOAuth(transport, registration: registration, server: tokenServer, clock: clock)
        let auth = oauth.refreshingAuth(credentials: credentials, store: store)
        let client = try Client(
            configuration: ClientConfiguration(
                baseURL: url("https://api.example.com"),
                timeSource: clock,
                retry: .none,
                auth: auth
            ),
            transport: transport
        )
        return (client, auth, transport)
    }

    private func refreshRequests(_ transport: ScriptedTransport) -> [ScriptedTransport.RecordedRequest] {
        transport.requests.filter { $0.url.path == "/token" }
    }

    @Test("100 concurrent calls with an expired token make exactly one OAuth refresh", .timeLimit(.minutes(10)))
    func oneRefreshForMany() async throws {
        let server = RotatingServer(beforeRefresh: { for _ in 0..<200 { await Task.yield() } })
        server.expireAccessToken()
        let (client, auth, transport) = try setUp(
            server,
            credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1")
        )
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for index in 0..<100 {
                group.addTask { try await client.send(Endpoint<JSONValue>(.get, "items/\(index)")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100 && results.allSatisfy { $0["ok"] == true })
        #expect(server.refreshes.withLock { $0 } == 1)
        #expect(refreshRequests(transport).count == 1)
        #expect(await auth.credentials?.accessToken == "access-2")
    }

    @Test("The refresh is sent in the standard spelling with the resource; an answer without resource keeps it")
    func resourceCarriedForward() async throws {
        let server = RotatingServer(omits: ["resource"])
        let clock = TestClock()
        let (client, auth, transport) = try setUp(
            server,
            credentials: TokenCredentials(
                accessToken: "access-1",
                refreshToken: "refresh-1",
                expiresAt: clock.now().addingTimeInterval(10),
                resource: "urn:bc:account:42"
            ),
            clock: clock
        )
        _ = try await client.send(Endpoint<JSONValue>(.get, "one"))
        clock.advance(by: .seconds(3600))
        _ = try await client.send(Endpoint<JSONValue>(.get, "two"))
        let refreshes = refreshRequests(transport)
        #expect(refreshes.count == 2)
        for refresh in refreshes {
            #expect(refresh.fieldNames == ["grant_type", "refresh_token", "resource", "client_id"])
            #expect(refresh.field("grant_type") == "refresh_token")
            #expect(refresh.field("resource") == "urn:bc:account:42")
        }
        #expect(refreshes.map { $0.field("refresh_token") } == ["refresh-1", "refresh-2"])
        #expect(await auth.credentials?.resource == "urn:bc:account:42")
    }

    @Test("The legacy spelling refreshes with type=refresh, the redirect URI and the client secret")
    func legacyRefresh() async throws {
        let server = RotatingServer()
        server.expireAccessToken()
        let (client, _, transport) = try setUp(
            server,
            credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"),
            oauthServer: legacyServer,
            registration: confidentialClient
        )
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let refresh = try #require(refreshRequests(transport).first)
        #expect(refresh.fieldNames == ["type", "refresh_token", "redirect_uri", "client_id", "client_secret"])
        #expect(refresh.field("type") == "refresh")
        #expect(refresh.field("redirect_uri") == "http://127.0.0.1:8765/callback")
    }

    @Test(
        "A refresh the server wants the redirect URI on, with none registered, is refused unsent, keeping the sign-in"
    )
    func legacyRefreshWithoutRedirect() async throws {
        let transport = ScriptedTransport()
        let oauth = makeOAuth(
            transport,
            registration: OAuthClientRegistration(clientID: "app-id", clientSecret: "client-secret-XYZ"),
            server: legacyServer
        )
        let error = await expectAPIError(.usage) {
            _ = try await oauth.refresh(TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"))
        }
        #expect(error?.message.contains("redirect URI") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test("A refresh answer without a refresh token keeps the old one")
    func refreshTokenKept() async throws {
        let server = RotatingServer(omits: ["refresh_token"])
        server.expireAccessToken()
        let (client, auth, _) = try setUp(
            server,
            credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1")
        )
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let credentials = try #require(await auth.credentials)
        #expect(credentials.accessToken == "access-2")
        #expect(credentials.refreshToken == "refresh-1")
    }

    @Test("A refused refresh token signs out and clears the store; a malformed answer keeps everything")
    func refusedAndMalformed() async throws {
        let store = InMemoryCredentialStore(TokenCredentials(accessToken: "old", refreshToken: "spent"))
        let (auth, error) = try await refreshAfterRejection(oauthError("invalid_grant"), store: store)
        #expect(error?.code == .authRequired)
        #expect(await auth.isSignInRequired)
        #expect(await store.load() == nil)

        let kept = TokenCredentials(accessToken: "old", refreshToken: "good")
        let keptStore = InMemoryCredentialStore(kept)
        let (keeping, malformedError) = try await refreshAfterRejection(
            .json(["access_token": "new", "expires_in": -5]),
            store: keptStore
        )
        #expect(malformedError?.code == .apiError)
        #expect(await keeping.isSignInRequired == false)
        #expect(await keptStore.load() == kept)
    }

    @Test(
        "A refresh refused as malformed, or a 400 that is no OAuth answer, keeps the sign-in",
        arguments: [
            ScriptedTransport.Step.json(
                ["error": "invalid_request", "error_description": "This token is bound to one account"],
                status: 400
            ),
            .status(400, body: "<html>Bad Request</html>"),
        ]
    )
    func malformedRequestKeepsSignIn(_ answer: ScriptedTransport.Step) async throws {
        let kept = TokenCredentials(accessToken: "old", refreshToken: "still-good")
        let store = InMemoryCredentialStore(kept)
        let (auth, error) = try await refreshAfterRejection(answer, store: store)
        #expect(error?.code == .apiError)
        #expect(error?.httpStatus == 400)
        #expect(await auth.isSignInRequired == false)
        #expect(await store.load() == kept)
    }

    /// Sends one request on a client whose token the API rejects and whose refresh gets
    /// `refreshAnswer`; returns the client's auth and the error the request ended with.
    private func refreshAfterRejection(
        _ refreshAnswer: ScriptedTransport.Step,
        store: InMemoryCredentialStore
    ) async throws -> (RefreshingTokenAuth, APIError?) {
        let transport = ScriptedTransport([.status(401, body: "{}"), refreshAnswer])
        let auth = makeOAuth(transport).refreshingAuth(store: store)
        let client = try Client(
            configuration: ClientConfiguration(baseURL: url("https://api.example.com"), auth: auth),
            transport: transport
        )
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        return (auth, error)
    }

    @Test("OAuthClient.refresh outside a client carries forward what the answer omits")
    func standaloneRefresh() async throws {
        let oauth = makeOAuth(ScriptedTransport([.json(["access_token": "new", "expires_in": 60])]))
        let refreshed = try await oauth.refresh(
            TokenCredentials(accessToken: "old", refreshToken: "r", scope: "read", resource: "urn:x")
        )
        #expect(refreshed.accessToken == "new")
        #expect(refreshed.refreshToken == "r")
        #expect(refreshed.scope == "read")
        #expect(refreshed.resource == "urn:x")
        let none = makeOAuth(ScriptedTransport())
        #expect(
            await caughtAPIError { _ = try await none.refresh(TokenCredentials(accessToken: "a")) }?.code
                == .authRequired
        )
    }
}
