import APISandbox
import Basecamp
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Refreshing issued tokens against the sandbox: after expiry, after a rejection, and from two
/// stores or processes at once.
extension SignInSandboxTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Refresh after expiry: once the token has expired on both sides, one refresh, and the new token works")
    func refreshAfterExpiry() async throws {
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

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "A Launchpad refresh without the redirect URI is refused: by the SDK before sending, by the sandbox as invalid_request; it spends nothing"
    )
    func launchpadRefreshNeedsRedirectURI() async throws {
        try await withLaunchpadSignIn { sandbox, authorization, oauth, credentials in
            var unregistered = oauth
            unregistered.registration.redirectURI = nil
            let unsent = await #expect(throws: APIError.self) { _ = try await unregistered.refresh(credentials) }
            #expect(unsent?.code == .usage)
            // A client that sends it anyway, by hand, is refused by the sandbox as Launchpad would.
            let form =
                "type=refresh&refresh_token=\(credentials.refreshToken ?? "")&client_id=sandbox-app"
                + "&client_secret=sandbox-app-secret"
            var request = HTTPRequest(
                method: .post,
                url: sandbox.baseURL.appending(path: "launchpad/authorization/token")
            )
            request.headerFields[.contentType] = "application/x-www-form-urlencoded"
            request.headerFields[.userAgent] = Self.agent
            let refused = try await URLSessionTransport().send(
                request,
                body: Data(form.utf8),
                options: TransportOptions()
            )
            #expect(refused.response.status.code == 400)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("invalid_request"))
            // The same refresh token still works once the redirect URI is sent with it.
            let renewed = try await oauth.refresh(credentials)
            #expect(renewed.accessToken != credentials.accessToken)
            #expect(authorization.refreshRequests == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A refresh answered without a refresh token keeps the one the client has, and that one still works")
    func refreshKeepsTheRefreshToken() async throws {
        let options = SandboxAuthorizationOptions(requiresIssuedTokens: true, rotatesRefreshTokens: false)
        try await withLaunchpadSignIn(options) { _, authorization, oauth, credentials in
            let first = try await oauth.refresh(credentials)
            #expect(first.accessToken != credentials.accessToken)
            #expect(first.refreshToken == credentials.refreshToken)
            let second = try await oauth.refresh(first)
            #expect(second.accessToken != first.accessToken)
            #expect(second.refreshToken == credentials.refreshToken)
            #expect(authorization.status(of: second.accessToken) == .valid)
            #expect(authorization.refreshRequests == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("By default a refresh rotates: the spent refresh token is refused as invalid_grant")
    func refreshRotatesByDefault() async throws {
        try await withLaunchpadSignIn { _, _, oauth, credentials in
            let renewed = try await oauth.refresh(credentials)
            #expect(renewed.refreshToken != credentials.refreshToken)
            let spent = await #expect(throws: APIError.self) { _ = try await oauth.refresh(credentials) }
            #expect(spent?.code == .authRequired)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A rejected refresh token ends in auth_required and clears the stored credentials")
    func rejectedRefreshToken() async throws {
        try await withLaunchpadSignIn { sandbox, authorization, oauth, credentials in
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
        let options = SandboxAuthorizationOptions(accessTokenLifetime: 45, requiresIssuedTokens: true)
        try await withLaunchpadSignIn(options) { sandbox, authorization, oauth, credentials in
            try await withCredentialsFile(credentials) { file in
                try await body(sandbox, oauth, file)
                #expect(authorization.refreshRequests == 1)
                let stored = try #require(await FileCredentialStore(url: file).load())
                #expect(stored.accessToken != credentials.accessToken)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Two stores on one file refresh at once: exactly one refresh reaches the server")
    func twoStoresOneRefresh() async throws {
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

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Two processes refreshing the same stored token at once: exactly one refresh reaches the server")
    func twoProcessesOneRefresh() async throws {
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
}
