import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

/// Signing in without a person, in-process: what `auth login --with-token` reads, what a run
/// nobody can answer does, `auth token`, and profile names.
@Suite("Sign-in without a person")
struct HeadlessSignInTests {
    /// Runs `basecamp` in-process with `input` on stdin.
    static func basecamp(_ arguments: [String], input: String, variables: [String: String]) async -> CommandResult {
        await BasecampCLITests.basecamp(arguments, variables: variables) { environment in
            environment.readStandardInput = { limit in Data(input.utf8.prefix(limit + 1)) }
        }
    }

    @Test("--with-token reads a bare token or a token response's JSON")
    func tokenInput() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let bare = try TokenInput.credentials(from: Data("  abc.DEF-123_~+/==\n".utf8), now: now)
        #expect(bare == TokenCredentials(accessToken: "abc.DEF-123_~+/=="))

        // Launchpad's tokens are signed Rails messages: base64 with its padding, then `--` and a digest.
        let launchpad = "BAhbB0kiAbB7ImNsaWVudF9pZCI6IjEifQY6BkVU=--0123456789abcdef0123456789abcdef01234567"
        #expect(try TokenInput.credentials(from: Data(launchpad.utf8), now: now).accessToken == launchpad)
        let signed = #"{"access_token":"\#(launchpad)","refresh_token":"\#(launchpad)x"}"#
        #expect(try TokenInput.credentials(from: Data(signed.utf8), now: now).refreshToken == launchpad + "x")

        let response = #"{"access_token":"at-1","refresh_token":"rt-1","expires_in":3600,"token_type":"Bearer"}"#
        let json = try TokenInput.credentials(from: Data(response.utf8), now: now)
        #expect(
            json == TokenCredentials(accessToken: "at-1", refreshToken: "rt-1", expiresAt: now.addingTimeInterval(3600))
        )

        let at = try TokenInput.credentials(
            from: Data(#"{"access_token":"at-2","expires_at":"2027-01-15T08:00:00Z"}"#.utf8),
            now: now
        )
        #expect(at.expiresAt == ISO8601DateFormatter().date(from: "2027-01-15T08:00:00Z"))

        // A token bound to one account is refreshed only with its resource sent back.
        let boundResponse = #"{"access_token":"at-3","scope":"read","resource":"urn:bc:account:9"}"#
        let bound = try TokenInput.credentials(from: Data(boundResponse.utf8), now: now)
        #expect(bound.resource == "urn:bc:account:9")
        #expect(bound.scope == "read")
    }

    @Test(
        "Bad input is a usage error that never repeats it",
        arguments: [
            "", "   \n", "two words", "line-one\nline-two", "tok\u{e9}n", "\"secret-quoted\"",
            "{\"refresh_token\":\"rt\"}", "[\"a\"]",
            "{\"access_token\":\"secret-at\",\"expires_in\":60,\"expires_at\":\"2027-01-01T00:00:00Z\"}",
            "{\"access_token\":\"secret-at\",\"expires_in\":-5}",
            "{\"access_token\":\"secret-at\",\"expires_in\":true}",
            "{\"access_token\":\"secret-at\",\"expires_at\":\"tomorrow\"}", "{\"access_token\":\"secret at\"}",
            "{\"access_token\":\"secret-at\",\"refresh_token\":42}",
            "{\"access_token\":\"secret-at\",\"token_type\":\"DPoP\"}", "{\"access_token\": \"secret-at\"",
            "{\"access_token\":\"secret-at\",\"resource\":\"\"}", "{\"access_token\":\"secret-at\",\"scope\":7}",
        ]
    )
    func badTokenInput(_ input: String) {
        do {
            _ = try TokenInput.credentials(from: Data(input.utf8), now: Date())
            Issue.record("accepted \(input.debugDescription)")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("--with-token: "))
            #expect(!message.contains("secret"))
        }
    }

    @Test("A first sign-in to the real Basecamp needs a contact for its User-Agent: refused before any request")
    func firstSignInNeedsContact() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let transport = ScriptedTransport()
        let login = await BasecampCLITests.basecamp(
            ["auth", "login", "--with-token"],
            variables: folder.variables.merging(["BASECAMP_BASE_URL": "https://3.basecampapi.com"]) { $1 }
        ) { environment in
            environment.readStandardInput = { limit in Data("headless-token-0123456789\n".utf8.prefix(limit + 1)) }
            environment.transport = transport
        }
        #expect(login.exitCode == 64, "\(login.stderr)")
        #expect(login.stderr.contains("sign-in included"))
        #expect(login.stderr.contains("BASECAMP_USER_AGENT"))
        #expect(transport.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.credentials.path))
    }

    @Test("A damaged sign-in file is a configuration error (exit 1) naming the file, not a usage error")
    func damagedLoginFile() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let login = folder.sandboxCredentials.deletingLastPathComponent().appending(path: "login.json")
        try FileManager.default.createDirectory(
            at: login.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data("{bad".utf8).write(to: login)
        let status = await BasecampCLITests.basecamp(
            ["--sandbox", "--json", "auth", "status"],
            variables: folder.variables
        )
        #expect(status.exitCode == 1, "\(status.stderr)")
        #expect(try status.errorReport().code == "configuration")
        #expect(try status.errorReport().message.contains("login.json"))
    }

    @Test("A token file that cannot be read, or a config folder that cannot be made, is configuration (exit 1)")
    func unusableSignInFiles() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let login = await Self.basecamp(
            ["--sandbox", "auth", "login", "--with-token"],
            input: "headless-token-0123456789\n",
            variables: folder.variables
        )
        #expect(login.exitCode == 0, "\(login.stderr)")
        try Data("{".utf8).write(to: folder.sandboxCredentials)
        let damaged = await BasecampCLITests.basecamp(
            ["--sandbox", "--json", "projects", "list"],
            variables: folder.variables
        )
        #expect(damaged.exitCode == 1, "\(damaged.stderr)")
        #expect(try damaged.errorReport().code == "configuration")
        #expect(try damaged.errorReport().message.contains("credentials.json"))

        // BASECAMP_CONFIG_DIR under a plain file: no folder can be made there.
        let plain = folder.url.appending(path: "plain")
        try Data().write(to: plain)
        let blocked = await Self.basecamp(
            ["--sandbox", "--json", "auth", "login", "--with-token"],
            input: "headless-token-0123456789\n",
            variables: folder.variables.merging(["BASECAMP_CONFIG_DIR": plain.appending(path: "bc").path]) { $1 }
        )
        #expect(blocked.exitCode == 1, "\(blocked.stderr)")
        #expect(try blocked.errorReport().code == "configuration")
    }

    @Test("--with-token under --sandbox: stored like a sign-in, never echoed; auth token prints it alone")
    func withTokenThenToken() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let token = "headless-token-0123456789"
        let login = await Self.basecamp(
            ["--sandbox", "auth", "login", "--with-token"],
            input: token + "\n",
            variables: folder.variables
        )
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in to Basecamp as "))
        #expect(!login.stdout.contains(token) && !login.stderr.contains(token))
        #expect(try folder.tokens(folder.sandboxCredentials) == TokenCredentials(accessToken: token))

        let printed = await BasecampCLITests.basecamp(["--sandbox", "auth", "token"], variables: folder.variables)
        #expect(printed.exitCode == 0, "\(printed.stderr)")
        #expect(printed.stdout == token + "\n")
        #expect(printed.stderr.isEmpty)
    }

    @Test("auth token with only BASECAMP_TOKEN set prints it: no sign-in and no User-Agent contact needed")
    func givenTokenPrinted() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let token = "abcd-1234-given-token"
        let printed = await BasecampCLITests.basecamp(
            ["auth", "token"],
            variables: folder.variables.merging(["BASECAMP_TOKEN": token]) { $1 }
        )
        #expect(printed.exitCode == 0, "\(printed.stderr)")
        #expect(printed.stdout == token + "\n")
        let flag = await BasecampCLITests.basecamp(
            ["auth", "token", "--token", "flag-token-5678"],
            variables: folder.variables
        )
        #expect(flag.stdout == "flag-token-5678\n")
    }

    @Test("--with-token: bad input or a terminal on stdin exits 64 and stores nothing")
    func withTokenRefusals() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let bad = await Self.basecamp(
            ["--sandbox", "--json", "auth", "login", "--with-token"],
            input: "not one token",
            variables: folder.variables
        )
        #expect(bad.exitCode == 64)
        #expect(try bad.errorReport().message.hasPrefix("--with-token: stdin is neither"))
        let terminal = await BasecampCLITests.basecamp(
            ["--sandbox", "auth", "login", "--with-token"],
            variables: folder.variables
        ) { $0.standardInputIsTerminal = true }
        #expect(terminal.exitCode == 64)
        #expect(terminal.stderr.contains("stdin is a terminal"))
        let both = await Self.basecamp(
            ["--sandbox", "auth", "login", "--with-token", "--device"],
            input: "token",
            variables: folder.variables
        )
        #expect(both.exitCode == 64)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path))
    }

    @Test("--with-token and Launchpad: a refresh token needs --redirect-uri, which is kept for every refresh")
    func withTokenRedirectURI() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let variables = folder.variables.merging([
            "BASECAMP_SANDBOX_LAUNCHPAD_ONLY": "1", "BASECAMP_CLIENT_ID": "headless-client",
        ]) { $1 }
        let response = #"{"access_token": "launchpad-at-0123456789", "refresh_token": "launchpad-rt-0123456789"}"#
        let missing = await Self.basecamp(
            ["--sandbox", "--json", "auth", "login", "--with-token"],
            input: response,
            variables: variables
        )
        #expect(missing.exitCode == 64)
        #expect(try missing.errorReport().message.contains("--redirect-uri"))
        #expect(!FileManager.default.fileExists(atPath: folder.sandboxCredentials.path))

        let malformed = await Self.basecamp(
            ["--sandbox", "auth", "login", "--with-token", "--redirect-uri", "127.0.0.1:8080/callback"],
            input: response,
            variables: variables
        )
        #expect(malformed.exitCode == 64)
        #expect(malformed.stderr.contains("--redirect-uri must be an absolute http(s) URL"))
        let withoutToken = await Self.basecamp(
            ["--sandbox", "auth", "login", "--redirect-uri", "http://127.0.0.1:8080/callback"],
            input: "",
            variables: variables
        )
        #expect(withoutToken.exitCode == 64)
        #expect(withoutToken.stderr.contains("--redirect-uri goes with --with-token"))

        let redirect = "http://127.0.0.1:8080/callback"
        let login = await Self.basecamp(
            ["--sandbox", "auth", "login", "--with-token", "--redirect-uri", redirect],
            input: response,
            variables: variables
        )
        #expect(login.exitCode == 0, "\(login.stderr)")
        let stored = try JSONDecoder().decode(
            StoredLogin.self,
            from: Data(contentsOf: folder.url.appending(path: "sandbox/login.json"))
        )
        #expect(stored.redirectURI?.absoluteString == redirect)
        #expect(stored.tokenRequestStyle == "legacy")
    }

    @Test("Nobody to answer: exit 3 at once naming --with-token, and no request sent")
    func unattended() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let transport = ScriptedTransport()
        let base = folder.variables.merging([
            "BASECAMP_BASE_URL": "http://127.0.0.1:9/basecamp", "BASECAMP_CLIENT_ID": "headless-client",
            "PATH": folder.url.path,
        ]) { $1 }
        let flagged = await BasecampCLITests.basecamp(
            ["--json", "--profile", "ci", "auth", "login"],
            variables: base.merging(["BASECAMP_NONINTERACTIVE": "1"]) { $1 }
        ) {
            $0.transport = transport
            $0.standardInputIsTerminal = true
        }
        #expect(flagged.exitCode == 3)
        let report = try flagged.errorReport()
        #expect(report.message.hasSuffix("BASECAMP_NONINTERACTIVE is set."))
        #expect(report.hint?.contains("'basecamp --profile ci auth login --with-token'") == true)

        let noTerminal = await BasecampCLITests.basecamp(["auth", "login", "--device"], variables: base) {
            $0.transport = transport
        }
        #expect(noTerminal.exitCode == 3)
        #expect(noTerminal.stderr.contains("stdin is not a terminal and no browser can be opened"))
        // A CI job with no client id is told the same: it could not sign in with one either.
        var withoutClient = base
        withoutClient["BASECAMP_CLIENT_ID"] = nil
        let noClient = await BasecampCLITests.basecamp(
            ["--json", "auth", "login"],
            variables: withoutClient.merging(["BASECAMP_NONINTERACTIVE": "1"]) { $1 }
        ) { $0.transport = transport }
        #expect(noClient.exitCode == 3)
        #expect(try noClient.errorReport().hint?.contains("--with-token") == true)
        #expect(transport.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path))

        // Someone at a terminal is asked: the sign-in starts (with discovery).
        let attended = await BasecampCLITests.basecamp(["auth", "login", "--device"], variables: base) {
            $0.transport = transport
            $0.standardInputIsTerminal = true
        }
        #expect(attended.exitCode != 0)
        #expect(!transport.requests.isEmpty)
    }

    @Test("No display (no DISPLAY, WAYLAND_DISPLAY or BROWSER): auth login signs in with a device code")
    func deviceWithoutDisplay() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let login = await BasecampCLITests.basecamp(["--sandbox", "auth", "login"], variables: folder.variables) {
            $0.standardInputIsTerminal = true
        }
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.stderr.contains("No display here: sign in with a code on another device"))
        #expect(login.stderr.contains("enter the code "))
        #expect(!login.stderr.contains("Open this address in your browser"))
        #expect(FileManager.default.fileExists(atPath: folder.sandboxCredentials.path))
    }

    @Test("auth token with no sign-in exits 3 and prints nothing on stdout")
    func tokenNotSignedIn() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        for arguments in [["--sandbox", "auth", "token"], ["auth", "token"]] {
            let result = await BasecampCLITests.basecamp(arguments, variables: folder.variables)
            #expect(result.exitCode == 3)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("Not signed in"))
        }
    }

    @Test(
        "Profile names are one folder: no '/', no '..', nothing hidden",
        arguments: ["../up", "a/b", ".hidden", "", "x..y"]
    )
    func profileNames(_ name: String) async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let option = await BasecampCLITests.basecamp(
            ["--profile", name, "auth", "status"],
            variables: folder.variables
        )
        #expect(option.exitCode == 64)
        let variable = await BasecampCLITests.basecamp(
            ["auth", "status"],
            variables: folder.variables.merging(["BASECAMP_PROFILE": name]) { $1 }
        )
        #expect(variable.exitCode == (name.isEmpty ? 3 : 64))
    }
}
