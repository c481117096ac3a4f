import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// `basecamp auth login` end to end: the built tool signs in to a sandbox (the browser played
/// by the test fetching the printed address), keeps the tokens, and later runs use and refresh
/// them.
@Suite("Signing in with the built basecamp")
struct SignInProcessTests {
    /// The sandbox accepts only tokens it issued, so a passing command proves the stored one.
    static let strict = ["BASECAMP_SANDBOX_STRICT_TOKENS": "1"]

    /// Signs in with `--sandbox auth login` (through the browser, or with `--device`) in a fresh
    /// config folder against a sandbox that accepts only tokens it issued unless not `strict`
    /// (`extra` adds variables),
    /// checks that it succeeded, then runs `body` with the folder, the variables and the sign-in's
    /// result; the folder is removed after.
    static func afterSandboxSignIn(
        device: Bool = false,
        strict: Bool = true,
        extra: [String: String] = [:],
        _ body: (SignInFolder, [String: String], CommandResult) async throws -> Void
    ) async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let variables = folder.variables.merging(strict ? Self.strict : [:]) { $1 }.merging(extra) { $1 }
        let login =
            device
            ? try await runBuiltBasecamp(
                ["--sandbox", "auth", "login", "--device"],
                variables: variables.merging(personPresent) { $1 }
            )
            : try await browserSignIn(["--sandbox", "auth", "login", "--no-browser"], variables: variables)
        #expect(login.exitCode == 0, "\(login.stderr)")
        try await body(folder, variables, login)
    }

    @Test("--sandbox auth login (browser), then projects list, auth status and logout")
    func browserFlowThenCommands() async throws {
        try await Self.afterSandboxSignIn { folder, variables, login in
            #expect(login.stdout.contains("Signed in to Basecamp as "))
            #expect(login.stdout.contains("(used when --account is not given)"))
            #expect(login.stderr.contains("Open this address in your browser"))
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.sandboxCredentials.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let login2 = try FileManager.default.attributesOfItem(
                atPath: folder.url.appending(path: "sandbox/login.json").path
            )
            #expect((login2[.posixPermissions] as? Int) == 0o600)
            // The sandbox's own record of the codes and tokens it issued is as private.
            let issued = try FileManager.default.attributesOfItem(
                atPath: folder.url.appending(path: "sandbox/authorization-state.json").path
            )
            #expect((issued[.posixPermissions] as? Int) == 0o600)

            let projects = try await runBuiltBasecamp(["--sandbox", "projects", "list"], variables: variables)
            #expect(projects.exitCode == 0, "\(projects.stderr)")
            #expect(projects.stdout.contains("The Leto Laptop"))

            let status = try await runBuiltBasecamp(["--sandbox", "--json", "auth", "status"], variables: variables)
            #expect(status.exitCode == 0, "\(status.stderr)")
            let report = try status.json(JSONValue.self)
            #expect(report["refreshable"] == true)
            #expect(report["accounts"]?[0]?["default"] == true)

            let secrets = try folder.storedSecrets()
            #expect(secrets.count == 2)
            for output in [login, projects, status] {
                for secret in secrets {
                    #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
                }
                #expect(!output.stderr.contains("code=") && !output.stdout.contains("code="))
            }

            let logout = try await runBuiltBasecamp(["--sandbox", "auth", "logout"], variables: variables)
            #expect(logout.exitCode == 0)
            #expect(logout.stdout.hasPrefix("Signed out"))
            #expect(!FileManager.default.fileExists(atPath: folder.sandboxCredentials.path))
            let after = try await runBuiltBasecamp(["--sandbox", "--json", "auth", "status"], variables: variables)
            #expect(after.exitCode == 3)
            #expect(try after.errorReport().hint == "Run 'basecamp --sandbox auth login' to sign in.")
        }
    }

    @Test("--sandbox auth login --device, then projects list with the stored token")
    func deviceFlow() async throws {
        try await Self.afterSandboxSignIn(device: true) { folder, variables, login in
            #expect(login.stderr.contains("enter the code "))
            #expect(login.stdout.contains("Signed in to Basecamp as "))
            let projects = try await runBuiltBasecamp(["--sandbox", "projects", "list"], variables: variables)
            #expect(projects.exitCode == 0, "\(projects.stderr)")
            for secret in try folder.storedSecrets() {
                #expect(!login.stdout.contains(secret) && !login.stderr.contains(secret))
            }
        }
    }

    @Test("an access token near expiry is refreshed by the next command, and the new one stored")
    func refreshAfterExpiry() async throws {
        try await Self.afterSandboxSignIn(extra: ["BASECAMP_SANDBOX_TOKEN_LIFETIME": "30"]) { folder, variables, _ in
            let before = try folder.tokens(folder.sandboxCredentials)

            let projects = try await runBuiltBasecamp(["--sandbox", "projects", "list"], variables: variables)
            #expect(projects.exitCode == 0, "\(projects.stderr)")
            let after = try folder.tokens(folder.sandboxCredentials)
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken)
            let secrets = [before.accessToken, after.accessToken, before.refreshToken, after.refreshToken]
            for secret in secrets.compactMap({ $0 }) {
                #expect(!projects.stdout.contains(secret) && !projects.stderr.contains(secret))
            }
        }
    }

    @Test("Launchpad only (today's production path): browser sign-in, then a refresh in its legacy spelling")
    func launchpadOnly() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let variables = folder.variables.merging(Self.strict) { $1 }.merging([
            "BASECAMP_SANDBOX_LAUNCHPAD_ONLY": "1", "BASECAMP_SANDBOX_TOKEN_LIFETIME": "30",
        ]) { $1 }
        let device = try await runBuiltBasecamp(
            ["--sandbox", "--json", "auth", "login", "--device"],
            variables: variables.merging(personPresent) { $1 }
        )
        #expect(device.exitCode == 64)
        #expect(try device.errorReport().message == "This Basecamp sign-in server does not offer device sign-in.")

        let login = try await browserSignIn(["--sandbox", "auth", "login", "--no-browser"], variables: variables)
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(authorizationAddress(in: login.stderr)?.path == "/launchpad/authorization/new")
        let before = try folder.tokens(folder.sandboxCredentials)
        let projects = try await runBuiltBasecamp(["--sandbox", "projects", "list"], variables: variables)
        #expect(projects.exitCode == 0, "\(projects.stderr)")
        #expect(try folder.tokens(folder.sandboxCredentials).accessToken != before.accessToken)
    }

    #if os(Linux)
    @Test("No display and a device endpoint answering 503: the sign-in falls back to an address to open")
    func deviceUnavailableFallsBack() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let variables = folder.variables.merging(["BASECAMP_SANDBOX_NO_DEVICE": "1"]) { $1 }
        let login = try await browserSignIn(["--sandbox", "auth", "login"], variables: variables)
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.stderr.contains("No display here"))
        #expect(login.stderr.contains("Device sign-in is not available on this server yet"))
        #expect(authorizationAddress(in: login.stderr) != nil)
        #expect(FileManager.default.fileExists(atPath: folder.sandboxCredentials.path))
    }
    #endif

    @Test("Launchpad without --port: the browser sign-in says it needs the registered redirect URI")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func launchpadPortNote() async throws {
        try await Self.withAuthorizationServer(SandboxAuthorizationOptions(offersResourceFirstServer: false)) {
            _,
            variables,
            _ in
            let login = try await browserSignIn(["auth", "login", "--no-browser"], variables: variables)
            #expect(login.exitCode == 0, "\(login.stderr)")
            #expect(login.stderr.contains("If Launchpad refuses it, run again with --port and the port you"))
        }
        try await Self.withAuthorizationServer(SandboxAuthorizationOptions()) { _, variables, _ in
            let login = try await browserSignIn(["auth", "login", "--no-browser"], variables: variables)
            #expect(login.exitCode == 0, "\(login.stderr)")
            #expect(!login.stderr.contains("--port"), "a resource-first server takes any loopback port")
        }
    }

    @Test("a refresh token the server rejects exits 3 with the sign-in hint")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func rejectedRefreshToken() async throws {
        try await Self.withAuthorizationServer(SandboxAuthorizationOptions(requiresIssuedTokens: true)) {
            authorization,
            variables,
            folder in
            let login = try await browserSignIn(["auth", "login", "--no-browser"], variables: variables)
            #expect(login.exitCode == 0, "\(login.stderr)")
            authorization.revokeAccessTokens()
            authorization.revokeRefreshTokens()
            let rejected = try await runBuiltBasecamp(["--json", "projects", "list"], variables: variables)
            #expect(rejected.exitCode == 3, "\(rejected.stderr)")
            let report = try rejected.errorReport()
            #expect(report.code == "auth_required")
            #expect(
                report.hint
                    == "The server refused the stored sign-in, so it was removed. Run 'basecamp auth login' to sign in again."
            )
            #expect(authorization.refreshRequests == 1)
            // The whole sign-in is gone, not just its tokens.
            #expect(!FileManager.default.fileExists(atPath: folder.credentials.path))
            #expect(!FileManager.default.fileExists(atPath: folder.url.appending(path: "login.json").path))
            let status = try await runBuiltBasecamp(["--json", "auth", "status"], variables: variables)
            #expect(status.exitCode == 3)
            #expect(try status.errorReport().message == "Not signed in to Basecamp.")
        }
    }

    @Test("--sandbox: a refresh the server refuses removes the whole sign-in; the next --sandbox command works")
    func refusedRefreshUnderSandbox() async throws {
        try await Self.afterSandboxSignIn(strict: false) { folder, variables, _ in
            // A refresh token the sandbox never issued, on a token that has expired: the next
            // command's refresh is refused with invalid_grant.
            var stored = try folder.tokens(folder.sandboxCredentials)
            stored.refreshToken = "refresh-token-the-sandbox-never-issued"
            stored.expiresAt = Date().addingTimeInterval(-60)
            try await FileCredentialStore(url: folder.sandboxCredentials).save(stored)

            let refused = try await runBuiltBasecamp(["--sandbox", "--json", "projects", "list"], variables: variables)
            #expect(refused.exitCode == 3, "\(refused.stderr)")
            #expect(
                try refused.errorReport().hint
                    == "The server refused the stored sign-in, so it was removed. Run 'basecamp --sandbox auth login' to sign in again."
            )
            #expect(!FileManager.default.fileExists(atPath: folder.sandboxCredentials.path))
            #expect(!FileManager.default.fileExists(atPath: folder.url.appending(path: "sandbox/login.json").path))

            let projects = try await runBuiltBasecamp(["--sandbox", "projects", "list"], variables: variables)
            #expect(projects.exitCode == 0, "\(projects.stderr)")
            #expect(projects.stdout.contains("The Leto Laptop"))
            let status = try await runBuiltBasecamp(["--sandbox", "--json", "auth", "status"], variables: variables)
            #expect(status.exitCode == 3)
            #expect(try status.errorReport().hint == "Run 'basecamp --sandbox auth login' to sign in.")
        }
    }

    @Test("two commands finding the same expired token: exactly one refresh reaches the server")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func twoProcessesRefreshOnce() async throws {
        let options = SandboxAuthorizationOptions(requiresIssuedTokens: true)
        try await Self.withAuthorizationServer(options) { authorization, variables, folder in
            let login = try await browserSignIn(["auth", "login", "--no-browser"], variables: variables)
            #expect(login.exitCode == 0, "\(login.stderr)")
            #expect(authorization.refreshRequests == 0)
            // Expired on the client's side only: the renewed token lives two weeks, so however
            // the two runs interleave, one refresh is all they need.
            var stored = try folder.tokens(folder.credentials)
            stored.expiresAt = Date().addingTimeInterval(-60)
            try await FileCredentialStore(url: folder.credentials).save(stored)

            async let first = runBuiltBasecamp(["projects", "list"], variables: variables)
            async let second = runBuiltBasecamp(["projects", "list"], variables: variables)
            let results = try await [first, second]
            for result in results {
                #expect(result.exitCode == 0, "\(result.stderr)")
                #expect(result.stdout.contains("The Leto Laptop"))
            }
            #expect(authorization.refreshRequests == 1)
        }
    }

    @Test("secret scan: --verbose device sign-in with a client secret, then a refreshing command")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func secretScan() async throws {
        let secret = "client-secret-not-for-output-4711"
        let options = SandboxAuthorizationOptions(
            accessTokenLifetime: 30,
            clients: [.init(id: "signin-tests", secret: secret)],
            requiresIssuedTokens: true
        )
        try await Self.withAuthorizationServer(options) { authorization, environment, folder in
            var variables = environment
            variables["BASECAMP_CLIENT_SECRET"] = secret
            let login = try await runBuiltBasecamp(
                ["--verbose", "auth", "login", "--device"],
                variables: variables.merging(personPresent) { $1 }
            )
            #expect(login.exitCode == 0, "\(login.stderr)")
            let first = try folder.tokens(folder.credentials)
            variables["BASECAMP_CLIENT_SECRET"] = nil
            let projects = try await runBuiltBasecamp(["--verbose", "projects", "list"], variables: variables)
            #expect(projects.exitCode == 0, "\(projects.stderr)")
            #expect(authorization.refreshRequests == 1)
            let second = try folder.tokens(folder.credentials)
            let secrets =
                [secret, first.accessToken, second.accessToken]
                + [first.refreshToken, second.refreshToken]
                .compactMap { $0 } + authorization.liveAccessTokens
            for (label, output) in [("login", login), ("projects", projects)] {
                #expect(output.stderr.contains("[http] "), "\(label): --verbose logged no request")
                for value in secrets {
                    #expect(!output.stdout.contains(value) && !output.stderr.contains(value), "\(label)")
                }
            }
        }
    }

    /// Starts a sandbox whose authorization server has `options`, and passes it to `body` with
    /// the variables of a real (not `--sandbox`) run against it (its API, its Launchpad, a client
    /// id and a scratch config folder) and that folder.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func withAuthorizationServer(
        _ options: SandboxAuthorizationOptions,
        _ body: (BasecampSandboxAuthorization, [String: String], SignInFolder) async throws -> Void
    ) async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let authorization = BasecampSandboxAuthorization(options: options)
        try await withBasecampSandbox(module: BasecampSandboxModule(authorization: authorization)) { sandbox, base in
            let variables = folder.variables.merging([
                "BASECAMP_BASE_URL": base,
                "BASECAMP_LAUNCHPAD_URL": sandbox.baseURL.appending(path: "launchpad").absoluteString,
                "BASECAMP_CLIENT_ID": "signin-tests",
                // A Launchpad integration has a secret; the resource-first server takes it too.
                "BASECAMP_CLIENT_SECRET": "signin-tests-secret",
            ]) { $1 }
            try await body(authorization, variables, folder)
        }
    }
}
