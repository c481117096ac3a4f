import APISandbox
import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreOAuthHummingbird
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Signing in to the sandbox's authorization servers for real, over loopback sockets: the code
/// flow driven without a browser (the authorize redirect followed by hand into a loopback
/// listener), the device flow, discovery, refresh and its failures.
@Suite("Sign-in against the sandbox", .timeLimit(.minutes(2)))
struct SignInSandboxTests {
    static let agent = "SignInSandboxTests (tests@example.com)"

    @available(macOS 14, iOS 17, tvOS 17, *)
    func withAuthSandbox(
        _ options: SandboxAuthorizationOptions = SandboxAuthorizationOptions(requiresIssuedTokens: true),
        _ body: (Sandbox, BasecampSandboxAuthorization) async throws -> Void
    ) async throws {
        let authorization = BasecampSandboxAuthorization(options: options)
        try await withBasecampSandbox(module: BasecampSandboxModule(authorization: authorization)) { sandbox in
            try await body(sandbox, authorization)
        }
    }

    /// A credentials file in a fresh directory, holding `credentials`, removed after `body`.
    func withCredentialsFile(
        _ credentials: TokenCredentials,
        _ body: (URL) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "signin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "credentials.json")
        try await FileCredentialStore(url: file).save(credentials)
        try await body(file)
    }

    func network() -> OAuthNetwork {
        OAuthNetwork(transport: URLSessionTransport(), userAgent: Self.agent)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    func launchpadClient(
        _ sandbox: Sandbox,
        registration: OAuthClientRegistration = OAuthClientRegistration(
            clientID: "sandbox-app",
            clientSecret: "sandbox-app-secret",
            redirectURI: URL(string: "http://127.0.0.1:9/callback")
        )
    ) -> OAuthClient {
        OAuthClient(
            registration: registration,
            server: BasecampOAuth.launchpad(at: sandbox.baseURL.appending(path: "launchpad")),
            network: network()
        )
    }

    /// ``withAuthSandbox(_:_:)`` after a Launchpad sign-in without a browser: `body` gets the
    /// sandbox, its authorization servers, the OAuth client and the credentials it was issued.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func withLaunchpadSignIn(
        _ options: SandboxAuthorizationOptions = SandboxAuthorizationOptions(requiresIssuedTokens: true),
        _ body: (Sandbox, BasecampSandboxAuthorization, OAuthClient, TokenCredentials) async throws -> Void
    ) async throws {
        try await withAuthSandbox(options) { sandbox, authorization in
            let oauth = launchpadClient(sandbox)
            try await body(sandbox, authorization, oauth, try await signInWithoutBrowser(oauth))
        }
    }

    /// Discovery from the sandbox's API, whose servers are on a loopback address.
    func discover(_ sandbox: Sandbox) async throws -> DiscoveredAuthorizationServer {
        try await BasecampOAuth.discoverAuthorizationServer(
            apiBaseURL: sandbox.basecampURL,
            launchpad: sandbox.baseURL.appending(path: "launchpad"),
            network: network(),
            allowsLoopback: true
        )
    }

    /// The browser's part: open the authorization URL, follow its redirect into the listener.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func signInWithoutBrowser(_ oauth: OAuthClient, resource: String? = nil) async throws -> TokenCredentials {
        let listener = try await LoopbackRedirectListener.start()
        do {
            let credentials = try await signIn(oauth, through: listener, resource: resource)
            await listener.close()
            return credentials
        } catch {
            await listener.close()
            throw error
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func signIn(
        _ oauth: OAuthClient,
        through listener: LoopbackRedirectListener,
        resource: String?
    ) async throws -> TokenCredentials {
        // The listener's address is the redirect URI, as registered (Launchpad repeats it on refresh).
        var oauth = oauth
        oauth.registration.redirectURI = listener.redirectURI
        let request = try oauth.authorizationRequest(redirectURI: listener.redirectURI, resource: resource)
        async let callback = listener.waitForCallback(timeout: .seconds(30), accept: request.isCallback)
        let browser = URLSessionTransport()
        let authorize = try await browser.send(
            HTTPRequest(method: .get, url: request.url),
            body: nil,
            options: TransportOptions()
        )
        #expect(authorize.response.status.code == 302)
        let location = try #require(authorize.response.headerFields[.location].flatMap(URL.init(string:)))
        #expect(location.absoluteString.hasPrefix(listener.redirectURI.absoluteString + "?"))
        let page = try await browser.send(
            HTTPRequest(method: .get, url: location),
            body: nil,
            options: TransportOptions()
        )
        #expect(page.response.status.code == 200)
        return try await oauth.exchange(callback: try await callback, for: request)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    func basecamp(_ sandbox: Sandbox, auth: any AuthStrategy) throws -> BasecampClient {
        try BasecampClient(
            auth: auth,
            userAgent: Self.agent,
            config: BasecampConfig(baseURL: sandbox.basecampURL),
            transport: URLSessionTransport()
        )
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Launchpad: code flow end to end, then authorization.json and the API with the issued token")
    func launchpadCodeFlow() async throws {
        try await withLaunchpadSignIn { sandbox, authorization, _, credentials in
            #expect(credentials.accessToken.hasPrefix("BAh") && credentials.accessToken.contains("=--"))
            #expect(credentials.refreshToken != nil)
            #expect(credentials.tokenType == nil)
            #expect(authorization.status(of: credentials.accessToken) == .valid)

            let client = try basecamp(sandbox, auth: BearerTokenAuth(token: credentials.accessToken))
            let signedIn = try await client.authorization(launchpad: sandbox.baseURL.appending(path: "launchpad"))
            #expect(signedIn.accounts.map(\.product) == ["bc3", "hey"])
            #expect(signedIn.identity.emailAddress?.contains("@") == true)
            let accounts = try await client.accounts(launchpad: sandbox.baseURL.appending(path: "launchpad"))
            #expect(accounts.map(\.id) == [BasecampSandboxSeed.accountID])
            #expect(accounts.first?.apiBaseURL == sandbox.basecampURL)
            let expiry = try #require(signedIn.expiresAt)
            #expect(abs(expiry.timeIntervalSinceNow - 1_209_600) < 120)

            let projects = try await client.forAccount(accountID).projects.list()
            #expect(!projects.isEmpty)
            // Strict: a token the servers never issued is refused.
            let stranger = try basecamp(sandbox, auth: BearerTokenAuth(token: "made-up"))
            let error = await #expect(throws: APIError.self) {
                _ = try await stranger.forAccount(accountID).projects.list()
            }
            #expect(error?.code == .authRequired)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Resource-first: discovery picks the new issuer; PKCE, iss and the resource binding all hold")
    func resourceFirstCodeFlow() async throws {
        try await withAuthSandbox { sandbox, authorization in
            let found = try await discover(sandbox)
            #expect(found.source == .discovered(issuer: sandbox.baseURL.absoluteString))
            #expect(found.server.tokenRequestStyle == .standard)
            #expect(found.server.supportsDeviceGrant)
            let oauth = OAuthClient(
                registration: OAuthClientRegistration(clientID: "sandbox-app"),
                server: found.server,
                network: network()
            )
            let resource = "urn:bc:account:\(accountID)"
            let credentials = try await signInWithoutBrowser(oauth, resource: resource)
            #expect(credentials.tokenType == "Bearer")
            #expect(credentials.resource == resource)

            // A revoked access token: the 401 makes one refresh, which must echo the resource
            // (the sandbox refuses it otherwise) and keeps it though the answer omits it.
            let auth = oauth.refreshingAuth(credentials: credentials)
            let client = try basecamp(sandbox, auth: auth)
            authorization.revokeAccessTokens()
            _ = try await client.forAccount(accountID).projects.list()
            #expect(authorization.refreshRequests == 1)
            let refreshed = try #require(await auth.credentials)
            #expect(refreshed.resource == resource)
            #expect(refreshed.refreshToken != credentials.refreshToken)
            authorization.revokeAccessTokens()
            _ = try await client.forAccount(accountID).projects.list()
            #expect(authorization.refreshRequests == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("With no resource-first server advertised, discovery falls back to Launchpad")
    func fallbackToLaunchpad() async throws {
        try await withAuthSandbox(SandboxAuthorizationOptions(offersResourceFirstServer: false)) { sandbox, _ in
            let found = try await discover(sandbox)
            guard case .fallback = found.source else {
                Issue.record("expected the Launchpad fallback, got \(found.source)")
                return
            }
            #expect(found.server == BasecampOAuth.launchpad(at: sandbox.baseURL.appending(path: "launchpad")))
            let credentials = try await signInWithoutBrowser(launchpadClient(sandbox))
            #expect(credentials.accessToken.hasPrefix("BAh") && credentials.accessToken.contains("=--"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Device flow: codes, pending polls, then tokens the API accepts")
    func deviceFlow() async throws {
        let options = SandboxAuthorizationOptions(
            requiresIssuedTokens: true,
            devicePollsBeforeApproval: 1,
            deviceInterval: 1
        )
        try await withAuthSandbox(options) { sandbox, _ in
            let found = try await discover(sandbox)
            let oauth = OAuthClient(
                registration: OAuthClientRegistration(clientID: "cli"),
                server: found.server,
                network: network()
            )
            let codes = Locked<[String]>([])
            let credentials = try await oauth.deviceSignIn { update in
                switch update {
                case .codeIssued(let authorization): codes.withLock { $0.append(authorization.userCode) }
                case .waiting: codes.withLock { $0.append("pending") }
                default: break
                }
            }
            let seen = codes.withLock { $0 }
            #expect(seen.count == 2 && seen.last == "pending")
            #expect(seen.first?.count == 9)
            _ = try await basecamp(sandbox, auth: BearerTokenAuth(token: credentials.accessToken)).forAccount(accountID)
                .projects.list()
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A server without the device grant enabled answers 503, reported as such")
    func deviceNotEnabled() async throws {
        try await withAuthSandbox(SandboxAuthorizationOptions(offersDeviceGrant: false)) { sandbox, _ in
            let server = AuthorizationServer(
                authorizationEndpoint: nil,
                tokenEndpoint: sandbox.baseURL.appending(path: "oauth/token"),
                deviceAuthorizationEndpoint: sandbox.baseURL.appending(path: "oauth/device_authorization")
            )
            let oauth = OAuthClient(
                registration: OAuthClientRegistration(clientID: "cli"),
                server: server,
                network: network()
            )
            let error = await #expect(throws: APIError.self) { _ = try await oauth.requestDeviceAuthorization() }
            #expect(error?.code == .apiError)
            #expect(error?.httpStatus == 503)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The token endpoints check what real servers check")
    func tokenEndpointChecks() async throws {
        let options = SandboxAuthorizationOptions(clients: [.init(id: "confidential", secret: "s3cret-value")])
        try await withAuthSandbox(options) { sandbox, _ in
            // A wrong secret is invalid_client (usage), the right one signs in.
            let wrong = launchpadClient(
                sandbox,
                registration: OAuthClientRegistration(clientID: "confidential", clientSecret: "wrong-secret")
            )
            let wrongSecret = await #expect(throws: APIError.self) { _ = try await signInWithoutBrowser(wrong) }
            #expect(wrongSecret?.oauthErrorCode == .invalidClient)
            let right = launchpadClient(
                sandbox,
                registration: OAuthClientRegistration(
                    clientID: "confidential",
                    clientSecret: "s3cret-value",
                    redirectURI: URL(string: "http://127.0.0.1:8765/callback")
                )
            )
            _ = try await signInWithoutBrowser(right)

            // A verifier that does not match the challenge is invalid_grant (no browser comes back:
            // the redirect is read, not followed).
            let request = try right.authorizationRequest(
                redirectURI: try #require(URLComponents(string: "http://127.0.0.1:8765/callback")?.url)
            )
            let browser = URLSessionTransport()
            let authorize = try await browser.send(
                HTTPRequest(method: .get, url: request.url),
                body: nil,
                options: TransportOptions()
            )
            let callback = try #require(authorize.response.headerFields[.location].flatMap(URL.init(string:)))
            let code = try request.authorizationCode(from: callback)
            let forged = AuthorizationCode(
                code: code.code,
                redirectURI: code.redirectURI,
                codeVerifier: PKCE().verifier
            )
            let forgedVerifier = await #expect(throws: APIError.self) { _ = try await right.exchange(forged) }
            #expect(forgedVerifier?.oauthErrorCode == .invalidGrant)
            // The code was spent by that attempt, as single-use codes are.
            let spentCode = await #expect(throws: APIError.self) { _ = try await right.exchange(code) }
            #expect(spentCode?.oauthErrorCode == .invalidGrant)

            // The resource-first server does not speak the drafts' spelling.
            var legacyAtNew = right
            legacyAtNew.server.tokenEndpoint = sandbox.baseURL.appending(path: "oauth/token")
            let refresh = await #expect(throws: APIError.self) {
                _ = try await legacyAtNew.refresh(TokenCredentials(accessToken: "a", refreshToken: "r"))
            }
            #expect(refresh?.oauthErrorCode == .unsupportedGrantType)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A declined sign-in comes back as forbidden with access_denied, in the browser and the device flow")
    func declined() async throws {
        let options = SandboxAuthorizationOptions(devicePollsBeforeApproval: 0, declinesAuthorization: true)
        try await withAuthSandbox(options) { sandbox, _ in
            let error = await #expect(throws: APIError.self) {
                _ = try await signInWithoutBrowser(launchpadClient(sandbox))
            }
            #expect(error?.code == .forbidden)
            #expect(error?.oauthErrorCode == .accessDenied)
            let server = try await discover(sandbox).server
            let device = OAuthClient(registration: .init(clientID: "cli"), server: server, network: network())
            let denied = await #expect(throws: APIError.self) { _ = try await device.deviceSignIn { _ in } }
            #expect(denied?.oauthErrorCode == .accessDenied)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("By default the API still accepts any non-empty token, but not an issued one that was revoked")
    func lenientByDefault() async throws {
        try await withAuthSandbox(SandboxAuthorizationOptions()) { sandbox, authorization in
            _ = try await basecamp(sandbox, auth: BearerTokenAuth(token: "anything")).forAccount(accountID).projects
                .list()
            let credentials = try await signInWithoutBrowser(launchpadClient(sandbox))
            authorization.revokeAccessTokens()
            let error = await #expect(throws: APIError.self) {
                _ = try await basecamp(sandbox, auth: BearerTokenAuth(token: credentials.accessToken)).forAccount(
                    accountID
                )
                .projects.list()
            }
            #expect(error?.code == .authRequired)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Launchpad takes no token request without a client secret or a User-Agent; the resource-first server needs no secret",
        arguments: [
            ("launchpad/authorization/token", "client_secret=s&", Self.agent, 400, "invalid_grant"),
            ("launchpad/authorization/token", "", Self.agent, 401, "invalid_client"),
            ("launchpad/authorization/token", "client_secret=s&", "", 400, "invalid_request"),
            ("oauth/token", "", Self.agent, 400, "invalid_grant"),
            ("launchpad/authorization.json", "", "", 400, "invalid_request"),
        ]
    )
    func launchpadStrictness(path: String, secret: String, agent: String, status: Int, error: String) async throws {
        try await withAuthSandbox { sandbox, _ in
            var request = HTTPRequest(
                method: path.hasSuffix(".json") ? .get : .post,
                url: sandbox.baseURL.appending(path: path)
            )
            request.headerFields[.contentType] = "application/x-www-form-urlencoded"
            request.headerFields[.authorization] = path.hasSuffix(".json") ? "Bearer some-token" : nil
            request.headerFields[.userAgent] = agent
            // A code nobody was issued: refused as invalid_grant once the client itself is accepted.
            let form =
                "\(secret)grant_type=authorization_code&client_id=any-app&code=unknown&redirect_uri=http://127.0.0.1:9/cb"
            let answer = try await URLSessionTransport().send(
                request,
                body: path.hasSuffix(".json") ? nil : Data(form.utf8),
                options: TransportOptions()
            )
            #expect(answer.response.status.code == status)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("\"\(error)\""))
        }
    }
}
