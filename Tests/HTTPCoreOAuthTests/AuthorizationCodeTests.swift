import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

@Suite("Authorization code: URL, callback, exchange")
struct AuthorizationCodeTests {
    private func query(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    private func callback(_ request: AuthorizationRequest, _ parameters: String) -> URL {
        url(request.redirectURI.absoluteString + "?" + parameters)
    }

    @Test("The authorization URL carries the client, redirect, state, S256 challenge, scope and resource")
    func standardURL() throws {
        let oauth = makeOAuth(ScriptedTransport())
        let request = try oauth.authorizationRequest(scope: "read write", resource: "urn:bc:account:1")
        let items = query(request.url)
        #expect(request.url.absoluteString.hasPrefix("https://auth.example.com/authorize?response_type=code&"))
        #expect(items["client_id"] == "app-id")
        #expect(items["redirect_uri"] == "http://127.0.0.1:8765/callback")
        #expect(items["state"] == request.state)
        #expect(items["code_challenge"] == request.pkce.challenge)
        #expect(items["code_challenge_method"] == "S256")
        #expect(items["scope"] == "read write")
        #expect(items["resource"] == "urn:bc:account:1")
        #expect(items["type"] == nil)
        #expect(items["code_verifier"] == nil)
        #expect(request.state.count == 43)
        // Two sign-ins never share a state or verifier.
        let other = try oauth.authorizationRequest()
        #expect(other.state != request.state && other.pkce.verifier != request.pkce.verifier)
    }

    @Test("The legacy style adds type=web_server to the authorization URL")
    func legacyURL() throws {
        let request = try makeOAuth(ScriptedTransport(), server: legacyServer).authorizationRequest()
        let items = query(request.url)
        #expect(items["type"] == "web_server")
        #expect(items["response_type"] == "code")
    }

    @Test("No redirect URI, plain http to another machine, or an http authorization endpoint is a usage error")
    func usage() async {
        let noRedirect = makeOAuth(ScriptedTransport(), registration: OAuthClientRegistration(clientID: "x"))
        #expect(await caughtAPIError { _ = try noRedirect.authorizationRequest() }?.code == .usage)
        let oauth = makeOAuth(ScriptedTransport())
        #expect(
            await caughtAPIError { _ = try oauth.authorizationRequest(redirectURI: url("http://example.com/cb")) }?.code
                == .usage
        )
        var server = standardServer
        server.authorizationEndpoint = url("http://auth.example.com/authorize")
        #expect(
            await caughtAPIError { _ = try makeOAuth(ScriptedTransport(), server: server).authorizationRequest() }?.code
                == .usage
        )
        server.authorizationEndpoint = nil
        #expect(
            await caughtAPIError { _ = try makeOAuth(ScriptedTransport(), server: server).authorizationRequest() }?.code
                == .usage
        )
    }

    @Test(
        "A callback whose state does not match is refused and nothing is exchanged",
        arguments: ["code=abc&state=wrong", "code=abc", "code=abc&state=STATE&state=STATE", "code=abc&state=STATE2"]
    )
    func stateMismatch(parameters: String) async throws {
        let transport = ScriptedTransport([tokenAnswer()])
        let oauth = makeOAuth(transport)
        let request = try oauth.authorizationRequest()
        let callback = callback(request, parameters.replacingOccurrences(of: "STATE", with: request.state))
        let error = await caughtAPIError { _ = try await oauth.exchange(callback: callback, for: request) }
        #expect(error?.code == .authRequired)
        #expect(error?.message.contains("state") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test("A callback for another path or port is refused")
    func otherEndpoint() async throws {
        let oauth = makeOAuth(ScriptedTransport())
        let request = try oauth.authorizationRequest()
        for other in [
            "http://127.0.0.1:8765/other", "http://127.0.0.1:9999/callback", "https://127.0.0.1:8765/callback",
        ] {
            let error = await caughtAPIError {
                _ = try request.authorizationCode(from: url("\(other)?code=a&state=\(request.state)"))
            }
            #expect(error?.code == .authRequired)
        }
    }

    @Test("error=access_denied is a forbidden error carrying the OAuth code; a server error is api_error")
    func serverErrors() async throws {
        let oauth = makeOAuth(ScriptedTransport())
        let request = try oauth.authorizationRequest()
        let denied = await caughtAPIError {
            _ = try request.authorizationCode(
                from: callback(request, "error=access_denied&error_description=The+user+said+no&state=\(request.state)")
            )
        }
        #expect(denied?.code == .forbidden)
        #expect(denied?.oauthErrorCode == .accessDenied)
        #expect(denied?.message.contains("The user said no") == true)
        let failed = await caughtAPIError {
            _ = try request.authorizationCode(from: callback(request, "error=server_error&state=\(request.state)"))
        }
        #expect(failed?.code == .apiError)
        #expect(failed?.oauthErrorCode == .serverError)
        let misconfigured = await caughtAPIError {
            _ = try request.authorizationCode(from: callback(request, "error=invalid_scope&state=\(request.state)"))
        }
        #expect(misconfigured?.code == .usage)
        // An error report with another sign-in's state is not this sign-in's business.
        let foreign = await caughtAPIError {
            _ = try request.authorizationCode(from: callback(request, "error=access_denied&state=someone-else"))
        }
        #expect(foreign?.code == .authRequired)
        #expect(foreign?.oauthErrorCode == nil)
        // So is one with no state at all, and its words are not shown: anyone could have sent it.
        let stateless = await caughtAPIError {
            _ = try request.authorizationCode(
                from: callback(request, "error=access_denied&error_description=Account+locked%3B+call+us")
            )
        }
        #expect(stateless?.code == .authRequired)
        #expect(stateless?.oauthErrorCode == nil)
        #expect(stateless?.message.contains("Account locked") == false)
    }

    @Test("isCallback tells this sign-in's callbacks, errors included, from everything else")
    func isCallback() throws {
        let request = try makeOAuth(ScriptedTransport()).authorizationRequest()
        #expect(request.isCallback(callback(request, "code=c&state=\(request.state)")))
        #expect(request.isCallback(callback(request, "error=access_denied&state=\(request.state)")))
        #expect(!request.isCallback(callback(request, "code=c&state=other")))
        #expect(!request.isCallback(callback(request, "code=c")))
        #expect(!request.isCallback(callback(request, "state=\(request.state)&state=\(request.state)")))
        #expect(!request.isCallback(url("http://127.0.0.1:8765/elsewhere?code=c&state=\(request.state)")))
    }

    @Test("An iss that is not the server's issuer is refused (RFC 9207)")
    func issuerMismatch() async throws {
        let request = try makeOAuth(ScriptedTransport()).authorizationRequest()
        let good = try request.authorizationCode(
            from: callback(request, "code=c&state=\(request.state)&iss=https://auth.example.com")
        )
        #expect(good.code == "c")
        let error = await caughtAPIError {
            _ = try request.authorizationCode(
                from: callback(request, "code=c&state=\(request.state)&iss=https://evil.example")
            )
        }
        #expect(error?.code == .authRequired)
        // This server does not say it always sends iss, so a callback without one is taken.
        #expect(!request.requiresIssuer)
        #expect(try request.authorizationCode(from: callback(request, "code=c&state=\(request.state)")).code == "c")
    }

    @Test("A server that says it always sends iss has a callback without one refused (RFC 9207)")
    func issuerRequired() async throws {
        var server = standardServer
        server.sendsIssuerInResponses = true
        let request = try makeOAuth(ScriptedTransport(), server: server).authorizationRequest()
        #expect(request.requiresIssuer)
        let missing = await caughtAPIError {
            _ = try request.authorizationCode(from: callback(request, "code=c&state=\(request.state)"))
        }
        #expect(missing?.code == .authRequired)
        #expect(missing?.message.contains("carries no iss") == true)
        let good = try request.authorizationCode(
            from: callback(request, "code=c&state=\(request.state)&iss=https://auth.example.com")
        )
        #expect(good.code == "c")
    }

    @Test(
        "The exchange posts the code, redirect URI and verifier in the standard spelling, client id only for a public client"
    )
    func standardExchange() async throws {
        let transport = ScriptedTransport([tokenAnswer(extra: ["token_type": "Bearer", "scope": "read"])])
        let clock = TestClock()
        let oauth = makeOAuth(transport, clock: clock)
        let request = try oauth.authorizationRequest(resource: "urn:bc:account:7")
        let credentials = try await oauth.exchange(
            callback: callback(request, "code=the-code&state=\(request.state)"),
            for: request
        )
        let sent = try #require(transport.requests.first)
        #expect(sent.url.absoluteString == "https://auth.example.com/token")
        #expect(sent.request.method == .post)
        #expect(sent.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent.header("User-Agent") == "Tests (tests@example.com)")
        #expect(
            sent.fieldNames == ["grant_type", "code", "redirect_uri", "code_verifier", "resource", "client_id"]
        )
        #expect(sent.field("grant_type") == "authorization_code")
        #expect(sent.field("code") == "the-code")
        #expect(sent.field("code_verifier") == request.pkce.verifier)
        #expect(sent.field("redirect_uri") == "http://127.0.0.1:8765/callback")
        #expect(sent.field("resource") == "urn:bc:account:7")
        #expect(credentials.accessToken == "access-1")
        #expect(credentials.refreshToken == "refresh-1")
        #expect(credentials.tokenType == "Bearer")
        #expect(credentials.scope == "read")
        #expect(credentials.expiresAt == clock.now().addingTimeInterval(3600))
    }

    @Test("The legacy spelling posts type=web_server; a confidential client adds its secret as a form field")
    func legacyExchange() async throws {
        let transport = ScriptedTransport([tokenAnswer()])
        let oauth = makeOAuth(transport, registration: confidentialClient, server: legacyServer)
        let request = try oauth.authorizationRequest()
        _ = try await oauth.exchange(callback: callback(request, "code=c&state=\(request.state)"), for: request)
        let sent = try #require(transport.requests.first)
        #expect(sent.fieldNames == ["type", "code", "redirect_uri", "code_verifier", "client_id", "client_secret"])
        #expect(sent.field("type") == "web_server")
        #expect(sent.field("grant_type") == nil)
        #expect(sent.field("client_secret") == "client-secret-XYZ")
    }

    @Test(
        "A server that wants the redirect URI on refresh takes only the registration's, refused before anything is sent"
    )
    func legacyRedirectMustBeRegistered() async throws {
        let oauth = makeOAuth(ScriptedTransport(), registration: confidentialClient, server: legacyServer)
        let other = await expectAPIError(.usage) {
            _ = try oauth.authorizationRequest(redirectURI: url("http://127.0.0.1:4000/callback"))
        }
        #expect(other?.message.contains("every refresh") == true)
        let unregistered = makeOAuth(
            ScriptedTransport(),
            registration: OAuthClientRegistration(clientID: "app-id", clientSecret: "client-secret-XYZ"),
            server: legacyServer
        )
        await expectAPIError(.usage) {
            _ = try unregistered.authorizationRequest(redirectURI: url("http://127.0.0.1:8765/callback"))
        }
        #expect(try oauth.authorizationRequest().redirectURI == confidentialClient.redirectURI)
    }

    @Test("client_secret_basic sends the id and secret in an Authorization header, not the form")
    func basicAuthentication() async throws {
        let transport = ScriptedTransport([tokenAnswer()])
        var registration = confidentialClient
        registration.authentication = .basicHeader
        let oauth = makeOAuth(transport, registration: registration)
        _ = try await oauth.exchange(
            AuthorizationCode(code: "c", redirectURI: url("http://127.0.0.1/cb"), codeVerifier: "v")
        )
        let sent = try #require(transport.requests.first)
        #expect(sent.header("Authorization") == "Basic " + Data("app-id:client-secret-XYZ".utf8).base64EncodedString())
        #expect(sent.field("client_id") == nil && sent.field("client_secret") == nil)
    }

    @Test("A refused code is auth_required, a refused client usage, and a redirect from the token endpoint api_error")
    func exchangeErrors() async throws {
        let code = AuthorizationCode(code: "c", redirectURI: url("http://127.0.0.1/cb"), codeVerifier: "v")
        let cases: [(ScriptedTransport.Step, APIError.Code, OAuthErrorCode?)] = [
            (oauthError("invalid_grant"), .authRequired, .invalidGrant),
            (oauthError("invalid_client", status: 401), .usage, .invalidClient),
            (oauthError("unsupported_grant_type"), .usage, .unsupportedGrantType),
            (.status(302, headers: [.location: "https://elsewhere.example/token"]), .apiError, nil),
            (.status(503), .apiError, nil),
            (.status(408), .network, nil),
            (.status(404, body: "no"), .apiError, nil),
            (.status(401), .authRequired, nil),
        ]
        for (step, expected, oauthCode) in cases {
            let oauth = makeOAuth(ScriptedTransport([step]))
            let error = await caughtAPIError { _ = try await oauth.exchange(code) }
            #expect(error?.code == expected)
            #expect(error?.oauthErrorCode == oauthCode)
        }
    }
}
