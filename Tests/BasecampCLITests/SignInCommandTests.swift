import APISandbox
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

/// The sign-in commands in-process: stored sign-ins, account choice, status and the
/// `User-Agent`, on files written by the test.
@Suite("Sign-in commands")
struct SignInCommandTests {
    /// A sign-in's description with these accounts.
    static func login(accounts: [StoredLogin.Account]) throws -> StoredLogin {
        StoredLogin(
            clientID: "client-id",
            clientSecret: "client-secret-5678",
            redirectURI: URL(string: "http://127.0.0.1:8765/callback"),
            tokenEndpoint: try #require(URL(string: "https://launchpad.example/authorization/token")),
            tokenRequestStyle: "legacy",
            issuer: nil,
            launchpadURL: try #require(URL(string: "https://launchpad.example")),
            apiBaseURL: try #require(URL(string: "https://3.basecampapi.com")),
            name: "Victor Cooper",
            email: "victor@honchodesign.com",
            accounts: accounts,
            signedInAt: Date()
        )
    }

    /// Writes a sign-in to `folder` (a real one, or a `--sandbox` one).
    static func storeSignIn(
        in folder: SignInFolder,
        sandbox: Bool,
        accounts: [StoredLogin.Account],
        token: String = "stored-access-token-1234",
        expiresAt: Date = Date().addingTimeInterval(86_400 * 13)
    ) async throws {
        let files = try #require(SignInFiles(variables: folder.variables, sandbox: sandbox))
        try files.saveLogin(try login(accounts: accounts))
        try await files.credentialStore(timeSource: SystemTimeSource()).save(
            TokenCredentials(accessToken: token, refreshToken: "stored-refresh-token-9876", expiresAt: expiresAt)
        )
    }

    /// A store that records whether each save happened while its refresh lock was held.
    final class LockRecordingStore: CredentialStore {
        private let state = Locked((held: false, savesUnderLock: [Bool]()))
        var savesUnderLock: [Bool] { state.withLock { $0.savesUnderLock } }

        func load() async -> TokenCredentials? { nil }
        func save(_ credentials: TokenCredentials) async throws {
            state.withLock { $0.savesUnderLock.append($0.held) }
        }
        func remove() async throws {}
        func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
            state.withLock { $0.held = true }
            defer { state.withLock { $0.held = false } }
            return try await body()
        }
    }

    @Test("A new sign-in is stored under the refresh lock, so a refresh of the old one cannot land on it")
    func signInTakesRefreshLock() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let files = try #require(SignInFiles(variables: folder.variables, sandbox: false))
        let store = LockRecordingStore()
        try await files.save(TokenCredentials(accessToken: "new-access-token"), try Self.login(accounts: []), in: store)
        #expect(store.savesUnderLock == [true])
        #expect(FileManager.default.fileExists(atPath: files.loginURL.path))
    }

    @Test("several accounts and no --account: a usage error naming them; one account is the default")
    func accountChoice() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        try await Self.storeSignIn(
            in: folder,
            sandbox: true,
            accounts: [.init(id: 111, name: "Honcho Design"), .init(id: 222, name: "Side Project")]
        )
        let several = await basecamp(["--sandbox", "projects", "list"], variables: folder.variables)
        #expect(several.exitCode == 64)
        #expect(several.stderr.contains("111 (Honcho Design), 222 (Side Project)"))
        #expect(several.stderr.contains("--account"))

        let chosen = await basecamp(
            ["--sandbox", "projects", "list", "--account", BasecampSandboxModule.defaultAccountID],
            variables: folder.variables
        )
        #expect(chosen.exitCode == 0, "\(chosen.stderr)")

        try await Self.storeSignIn(
            in: folder,
            sandbox: true,
            accounts: [.init(id: Int(BasecampSandboxModule.defaultAccountID) ?? 0, name: "Sandbox")]
        )
        let single = await basecamp(["--sandbox", "projects", "list"], variables: folder.variables)
        #expect(single.exitCode == 0, "\(single.stderr)")
        #expect(single.stdout.contains("The Leto Laptop"))
    }

    @Test("auth status: who, accounts and expiry; never a token or the client secret")
    func status() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await Self.storeSignIn(
            in: folder,
            sandbox: false,
            accounts: [.init(id: 111, name: "Honcho Design")],
            expiresAt: now.addingTimeInterval(3 * 86_400)
        )
        let status = await basecamp(["auth", "status"], variables: folder.variables) {
            $0.clock = TestClock(start: now)
        }
        #expect(status.exitCode == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Signed in to Basecamp as Victor Cooper <victor@honchodesign.com>."))
        #expect(status.stdout.contains("Account:  111 Honcho Design (used when --account is not given)"))
        #expect(status.stdout.contains("(in 3 days); renewed automatically"))
        #expect(status.stdout.contains("Server:   https://launchpad.example"))
        for secret in ["stored-access-token-1234", "stored-refresh-token-9876", "client-secret-5678"] {
            #expect(!status.stdout.contains(secret) && !status.stderr.contains(secret))
        }

        let missing = await basecamp(["--json", "auth", "status"], variables: SignInFolder().variables)
        #expect(missing.exitCode == 3)
        #expect(try missing.errorReport().hint == "Run 'basecamp auth login' to sign in (or set BASECAMP_TOKEN).")
        let sandbox = await basecamp(["--sandbox", "--json", "auth", "status"], variables: SignInFolder().variables)
        #expect(sandbox.exitCode == 3)
        #expect(try sandbox.errorReport().hint == "Run 'basecamp --sandbox auth login' to sign in.")
    }

    @Test("no token and no sign-in: exit 3 saying to run auth login")
    func notSignedIn() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let result = await basecamp(
            ["--json", "projects", "list", "--account", "111"],
            variables: folder.variables
        )
        #expect(result.exitCode == 3)
        let report = try result.errorReport()
        #expect(report.code == "auth_required")
        #expect(report.hint == "Run 'basecamp auth login' to sign in (or set BASECAMP_TOKEN).")
    }

    @Test("a login without its tokens is no sign-in: --sandbox uses its stand-in, a real run says to sign in")
    func loginWithoutTokens() async throws {
        for sandbox in [true, false] {
            let folder = SignInFolder()
            defer { folder.remove() }
            try await Self.storeSignIn(in: folder, sandbox: sandbox, accounts: [.init(id: 111, name: "Honcho Design")])
            try FileManager.default.removeItem(at: sandbox ? folder.sandboxCredentials : folder.credentials)
            let mode = sandbox ? ["--sandbox"] : []
            let result = await basecamp(mode + ["--json", "projects", "list"], variables: folder.variables)
            if sandbox {
                #expect(result.exitCode == 0, "\(result.stderr)")
                #expect(result.stdout.contains("The Leto Laptop"))
            } else {
                #expect(result.exitCode == 3)
                #expect(
                    try result.errorReport().hint == "Run 'basecamp auth login' to sign in (or set BASECAMP_TOKEN)."
                )
            }
        }
    }

    @Test(
        "auth status rounds the time to expiry as a person reads it",
        arguments: [
            (14 * 86_400 - 5, "in 14 days"),
            (13 * 86_400 + 12 * 3600, "in 14 days"),
            (13 * 86_400 + 11 * 3600, "in 13 days"),
            (36 * 3600, "in 36 hours"),
            (47 * 3600 + 40 * 60, "in 2 days"),
            (2 * 3600 - 10, "in 2 hours"),
            (90 * 60, "in 90 minutes"),
            (5 * 60 - 20, "in 5 minutes"),
            (119, "in 119 seconds"),
            (1, "in 1 second"),
            (0, "now"),
            (-3 * 3600 - 100, "3 hours ago"),
            (-86_400 * 2, "2 days ago"),
        ] as [(Int, String)]
    )
    func relativeExpiry(seconds: Int, text: String) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(AuthStatus.relative(now.addingTimeInterval(TimeInterval(seconds)), now: now) == text)
    }

    @Test("the stored token and BASECAMP_USER_AGENT reach the API; the public API is the default")
    func storedTokenAndAgent() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        try await Self.storeSignIn(in: folder, sandbox: false, accounts: [.init(id: 111, name: "Honcho Design")])
        let transport = ScriptedTransport([.json([]), .json([])])
        var variables = folder.variables
        variables["BASECAMP_USER_AGENT"] = "Acme Reports (ops@acme.example)"
        let result = await basecamp(["projects", "list"], variables: variables) { $0.transport = transport }
        #expect(result.exitCode == 0, "\(result.stderr)")
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString.hasPrefix("https://3.basecampapi.com/111/projects.json"))
        #expect(request.header("Authorization") == "Bearer stored-access-token-1234")
        #expect(request.header("User-Agent") == "Acme Reports (ops@acme.example)")
    }

    @Test("accounts lists the sandbox's Basecamp account, not its HEY one, as the default")
    func accounts() async throws {
        let result = await basecamp(["--sandbox", "--json", "accounts"], variables: SignInFolder().variables)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let rows = try result.json([JSONValue].self)
        #expect(rows.count == 1)
        #expect(rows.first?["id"]?.intValue == Int(BasecampSandboxModule.defaultAccountID))
        #expect(rows.first?["default"] == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("accounts with a token for a loopback server asks that server's Launchpad, never the real one")
    func accountsOnLoopback() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        try await withBasecampSandbox { sandbox, baseURL in
            let result = await basecamp(
                ["--json", "accounts"],
                variables: folder.variables.merging(credentials(baseURL)) { $1 }
            )
            #expect(result.exitCode == 0, "\(result.stderr)")
            let rows = try result.json([JSONValue].self)
            #expect(rows.first?["id"]?.intValue == Int(BasecampSandboxModule.defaultAccountID))
            #expect(sandbox.counters().requestsByPath["/launchpad/authorization.json"] == 1)
        }
    }

    @Test("a browser sign-in nobody finishes ends with exit 3 when --wait runs out, storing nothing")
    func browserTimeout() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        // A person at a terminal who never finishes.
        let result = await basecamp(
            ["--sandbox", "--json", "auth", "login", "--no-browser", "--wait", "0.3"],
            variables: folder.variables
        ) { $0.standardInputIsTerminal = true }
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("Open this address in your browser"))
        #expect(try result.errorReport().message.hasPrefix("No sign-in arrived at http://127.0.0.1:"))
        #expect(!FileManager.default.fileExists(atPath: folder.sandboxCredentials.path))
    }

    @Test(
        "--device when the API's own sign-in document could not be had: the failed fetch (exit 6 or 7), not a usage error",
        arguments: [(SandboxFault.connection(.closeBeforeResponse), Int32(6)), (.serviceUnavailable, 7)]
    )
    @available(macOS 14, iOS 17, tvOS 17, *)
    func deviceWithoutDiscovery(fault: SandboxFault, exitCode: Int32) async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let faults = FaultInjection(
            sequence: Array(repeating: fault, count: 10),
            pathPrefixes: ["/.well-known/oauth-protected-resource"]
        )
        try await withBasecampSandbox(faults: faults) { sandbox, base in
            let variables = folder.variables.merging([
                "BASECAMP_BASE_URL": base,
                "BASECAMP_LAUNCHPAD_URL": sandbox.baseURL.appending(path: "launchpad").absoluteString,
                "BASECAMP_CLIENT_ID": "signin-tests",
            ]) { $1 }
            let result = await basecamp(["--json", "auth", "login", "--device"], variables: variables) {
                $0.standardInputIsTerminal = true
            }
            #expect(result.exitCode == exitCode, "\(result.stderr)")
            let report = try result.errorReport()
            #expect(report.message.hasPrefix("Device sign-in needs the sign-in server the API names. Discovery failed"))
            #expect(report.hint?.contains("without --device") == true)
            #expect(!FileManager.default.fileExists(atPath: folder.credentials.path))
        }
    }

    @Test("a real sign-in at a terminal needs a client id: exit 64 naming the flag and where to register")
    func clientIDRequired() async throws {
        let result = await basecamp(["auth", "login"], variables: SignInFolder().variables) {
            $0.standardInputIsTerminal = true
        }
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("BASECAMP_CLIENT_ID"))
        #expect(result.stderr.contains("launchpad.37signals.com/integrations"))
    }

    @Test("after a logout elsewhere, a renewed token is not written back")
    func noSaveAfterLogout() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        try await Self.storeSignIn(in: folder, sandbox: false, accounts: [])
        let files = try #require(SignInFiles(variables: folder.variables, sandbox: false))
        let store = SignInCredentialStore(files: files, base: files.credentialStore(timeSource: SystemTimeSource()))
        try await store.save(TokenCredentials(accessToken: "renewed-1"))
        #expect(await store.load()?.accessToken == "renewed-1")

        let logout = await basecamp(["auth", "logout"], variables: folder.variables)
        #expect(logout.exitCode == 0)
        await #expect(throws: APIError.self) { try await store.save(TokenCredentials(accessToken: "renewed-2")) }
        #expect(await store.load() == nil)
    }

    @Test("logout without a sign-in says so and succeeds; --json says it as one object")
    func logoutWhenSignedOut() async throws {
        let folder = SignInFolder()
        let result = await basecamp(["auth", "logout"], variables: folder.variables)
        #expect(result.exitCode == 0)
        #expect(result.stdout == "Not signed in.\n")
        let json = await basecamp(["--json", "auth", "logout"], variables: folder.variables)
        #expect(json.exitCode == 0)
        let object = try JSONValue(parsing: Data(json.stdout.utf8))
        #expect(object["removed"] == false)
        #expect(object["profile"] == "default")
    }
}
