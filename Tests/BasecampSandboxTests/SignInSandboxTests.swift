import APISandbox
import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreOAuth
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
    private func withAuthSandbox(
        _ options: SandboxAuthorizationOptions = SandboxAuthorizationOptions(requiresIssuedTokens: true),
        _ body: (Sandbox, BasecampSandboxAuthorization) async throws -> Void
    ) async throws {
        let authorization = BasecampSandboxAuthorization(options: options)
        try await withBasecampSandbox(module: BasecampSandboxModule(authorization: authorization)) { sandbox in
            try await body(sandbox, authorization)
        }
    }

    /// A credentials file in a fresh directory, holding `credentials`, removed after `body`.
    private func withCredentialsFile(
        _ credentials: TokenCredentials,
        _ body: (URL) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "signin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "credentials.json")
        try await FileCredentialStore(url: file).save(credentials)
        try await body(file)
    }

    private func network() -> OAuthNetwork {
        OAuthNetwork(transport: URLSessionTransport(), userAgent: Self.agent)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func launchpadClient(
        _ sandbox: Sandbox,
        registration: OAuthClientRegistration = OAuthClientRegistration(clientID: "sandbox-app")
    ) -> OAuthClient {
        OAuthClient(
            registration: registration,
            server: BasecampOAuth.launchpad(at: sandbox.baseURL.appending(path: "launchpad")),
            network: network()
        )
    }

    /// The browser's part: open the authorization URL, follow its redirect into the listener.
    private func signInWithoutBrowser(_ oauth: OAuthClient, resource: String? = nil) async throws -> TokenCredentials {
        let listener = try LoopbackRedirectListener()
        defer { listener.close() }
        let request = try oauth.authorizationRequest(redirectURI: listener.redirectURI, resource: resource)
        async let callback = listener.waitForCallback(timeout: .seconds(30), accept: request.isCallback)
        let browser = URLSessionTransport()
        let authorize = try await browser.send(
            HTTPRequest(method: .get, url: request.url),
            body: nil,
            options: TransportOptions(redirectPolicy: .none)
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
    private func basecamp(_ sandbox: Sandbox, auth: any AuthStrategy) throws -> BasecampClient {
        try BasecampClient(
            auth: auth,
            userAgent: Self.agent,
            config: BasecampConfig(baseURL: sandbox.basecampURL),
            transport: URLSessionTransport()
        )
    }

    @Test("Launchpad: code flow end to end, then authorization.json and the API with the issued token")
    func launchpadCodeFlow() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await withAuthSandbox { sandbox, authorization in
            let oauth = launchpadClient(sandbox)
            let credentials = try await signInWithoutBrowser(oauth)
            #expect(credentials.accessToken.hasPrefix("sbx_at_"))
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

    @Test("Resource-first: discovery picks the new issuer; PKCE, iss and the resource binding all hold")
    func resourceFirstCodeFlow() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await withAuthSandbox { sandbox, authorization in
            let launchpad = sandbox.baseURL.appending(path: "launchpad")
            let found = try await BasecampOAuth.discoverAuthorizationServer(
                apiBaseURL: sandbox.basecampURL,
                launchpad: launchpad,
                network: network(),
                allowsLocalAddresses: true
            )
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

    @Test("With no resource-first server advertised, discovery falls back to Launchpad")
    func fallbackToLaunchpad() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await withAuthSandbox(SandboxAuthorizationOptions(offersResourceFirstServer: false)) { sandbox, _ in
            let launchpad = sandbox.baseURL.appending(path: "launchpad")
            let found = try await BasecampOAuth.discoverAuthorizationServer(
                apiBaseURL: sandbox.basecampURL,
                launchpad: launchpad,
                network: network(),
                allowsLocalAddresses: true
            )
            guard case .fallback = found.source else {
                Issue.record("expected the Launchpad fallback, got \(found.source)")
                return
            }
            #expect(found.server == BasecampOAuth.launchpad(at: launchpad))
            let credentials = try await signInWithoutBrowser(launchpadClient(sandbox))
            #expect(credentials.accessToken.hasPrefix("sbx_at_"))
        }
    }

    @Test("Device flow: codes, pending polls, then tokens the API accepts")
    func deviceFlow() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        let options = SandboxAuthorizationOptions(
            requiresIssuedTokens: true,
            devicePollsBeforeApproval: 1,
            deviceInterval: 1
        )
        try await withAuthSandbox(options) { sandbox, _ in
            let found = try await BasecampOAuth.discoverAuthorizationServer(
                apiBaseURL: sandbox.basecampURL,
                launchpad: sandbox.baseURL.appending(path: "launchpad"),
                network: network(),
                allowsLocalAddresses: true
            )
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

    @Test("A server without the device grant enabled answers 503, reported as such")
    func deviceNotEnabled() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
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

    @Test("Refresh after expiry: once the token has expired on both sides, one refresh, and the new token works")
    func refreshAfterExpiry() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        // Both clocks jump three weeks, past the two-week token: the sandbox's for the API, the
        // client's for its own expiry check.
        let offset = Locked<TimeInterval>(0)
        let authorization = BasecampSandboxAuthorization(
            options: SandboxAuthorizationOptions(requiresIssuedTokens: true),
            now: { Date().addingTimeInterval(offset.withLock { $0 }) }
        )
        try await withBasecampSandbox(module: BasecampSandboxModule(authorization: authorization)) { sandbox in
            let oauth = launchpadClient(sandbox)
            let credentials = try await signInWithoutBrowser(oauth)
            let threeWeeks: TimeInterval = 21 * 86_400
            offset.withLock { $0 = threeWeeks }
            #expect(authorization.status(of: credentials.accessToken) == .invalid)
            let auth = oauth.refreshingAuth(credentials: credentials)
            let client = try BasecampClient(
                auth: auth,
                userAgent: Self.agent,
                config: BasecampConfig(baseURL: sandbox.basecampURL),
                transport: URLSessionTransport(),
                timeSource: TestClock(start: Date().addingTimeInterval(threeWeeks))
            )
            _ = try await client.forAccount(accountID).projects.list()
            _ = try await client.forAccount(accountID).people.list()
            #expect(authorization.refreshRequests == 1)
            let now = try #require(await auth.credentials)
            #expect(now.accessToken != credentials.accessToken)
            #expect(authorization.status(of: now.accessToken) == .valid)
        }
    }

    @Test("A rejected refresh token ends in auth_required and clears the stored credentials")
    func rejectedRefreshToken() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await withAuthSandbox { sandbox, authorization in
            let oauth = launchpadClient(sandbox)
            let credentials = try await signInWithoutBrowser(oauth)
            try await withCredentialsFile(credentials) { file in
                let store = FileCredentialStore(url: file)
                let auth = oauth.refreshingAuth(store: store)
                let client = try basecamp(sandbox, auth: auth)
                authorization.revokeAccessTokens()
                authorization.revokeRefreshTokens()
                let error = await #expect(throws: APIError.self) {
                    _ = try await client.forAccount(accountID).projects.list()
                }
                #expect(error?.code == .authRequired)
                #expect(error?.exitCode == 3)
                #expect(authorization.refreshRequests == 1)
                #expect(await store.load() == nil)
                #expect(await auth.isSignInRequired)
            }
        }
    }

    /// Signs in to a sandbox whose tokens live 45 s (inside the clients' 60 s refresh margin,
    /// so every client refreshes before its call), saves the credentials to a file, runs
    /// `body`, and checks that exactly one refresh reached the server and the file holds its
    /// result.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func expectOneRefresh(
        _ body: (_ sandbox: Sandbox, _ oauth: OAuthClient, _ file: URL) async throws -> Void
    ) async throws {
        try await withAuthSandbox(SandboxAuthorizationOptions(accessTokenLifetime: 45, requiresIssuedTokens: true)) {
            sandbox,
            authorization in
            let oauth = launchpadClient(sandbox)
            let credentials = try await signInWithoutBrowser(oauth)
            try await withCredentialsFile(credentials) { file in
                try await body(sandbox, oauth, file)
                #expect(authorization.refreshRequests == 1)
                let stored = try #require(await FileCredentialStore(url: file).load())
                #expect(stored.accessToken != credentials.accessToken)
            }
        }
    }

    @Test("Two stores on one file refresh at once: exactly one refresh reaches the server")
    func twoStoresOneRefresh() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await expectOneRefresh { sandbox, oauth, file in
            let clients = try (0..<2).map { _ in
                try basecamp(sandbox, auth: oauth.refreshingAuth(store: FileCredentialStore(url: file)))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients {
                    group.addTask { _ = try await client.forAccount(accountID).projects.list() }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test("Two processes refreshing the same stored token at once: exactly one refresh reaches the server")
    func twoProcessesOneRefresh() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await expectOneRefresh { sandbox, oauth, file in
            let arguments = [
                file.path,
                oauth.registration.clientID,
                sandbox.baseURL.appending(path: "launchpad/authorization/token").absoluteString,
                sandbox.basecampURL.appending(path: "\(accountID)/projects.json").absoluteString,
                file.deletingLastPathComponent().appending(path: "barrier").path,
                "2",
            ]
            async let first = BuiltExecutable.run("OAuthRefreshProbe", arguments: arguments)
            async let second = BuiltExecutable.run("OAuthRefreshProbe", arguments: arguments)
            for result in try await [first, second] {
                #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
                #expect(result.stdout == "ok 200\n")
            }
        }
    }

    @Test("The token endpoints check what real servers check")
    func tokenEndpointChecks() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
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
                registration: OAuthClientRegistration(clientID: "confidential", clientSecret: "s3cret-value")
            )
            _ = try await signInWithoutBrowser(right)

            // A verifier that does not match the challenge is invalid_grant.
            let listener = try LoopbackRedirectListener()
            defer { listener.close() }
            let request = try right.authorizationRequest(redirectURI: listener.redirectURI)
            let browser = URLSessionTransport()
            let authorize = try await browser.send(
                HTTPRequest(method: .get, url: request.url),
                body: nil,
                options: TransportOptions(redirectPolicy: .none)
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

    @Test("A declined sign-in comes back as forbidden with access_denied")
    func declined() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
        try await withAuthSandbox(SandboxAuthorizationOptions(declinesAuthorization: true)) { sandbox, _ in
            let error = await #expect(throws: APIError.self) {
                _ = try await signInWithoutBrowser(launchpadClient(sandbox))
            }
            #expect(error?.code == .forbidden)
            #expect(error?.oauthErrorCode == .accessDenied)
        }
    }

    @Test("By default the API still accepts any non-empty token, but not an issued one that was revoked")
    func lenientByDefault() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
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
}
