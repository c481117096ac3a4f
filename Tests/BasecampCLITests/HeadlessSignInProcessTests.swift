import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// Signing in without a person, run as the built tool against its own `--sandbox`: tokens piped
/// to `auth login --with-token`, `auth token`, runs nobody can answer, profiles side by side and
/// `basecamp doctor`.
@Suite("Sign-in without a person, with the built basecamp")
struct HeadlessSignInProcessTests {
    /// Runs the built `basecamp` with `input` on stdin.
    static func run(
        _ arguments: [String],
        input: String? = nil,
        variables: [String: String]
    ) async throws
        -> CommandResult
    {
        try await BuiltExecutable.run(
            "basecamp",
            arguments: arguments,
            variables: variables,
            standardInput: input.map { Data($0.utf8) }
        )
    }

    /// The checks `doctor --json` printed, by name, with their status.
    static func statuses(_ result: CommandResult) throws -> [String: String] {
        let checks = try result.json([[String: String?]].self)
        return Dictionary(
            uniqueKeysWithValues: checks.map { (($0["check"] ?? nil) ?? "", ($0["status"] ?? nil) ?? "") }
        )
    }

    @Test("A token response piped to --with-token; auth token renews it first; doctor is all ✔")
    func tokenResponseThenTokenThenDoctor() async throws {
        // Real tokens from the sandbox (which then accepts only tokens it issued), handed back
        // as a script would: the sign-in is removed and the token response piped in.
        try await SignInProcessTests.afterSandboxSignIn { folder, variables, _ in
            let issued = try folder.tokens(folder.sandboxCredentials)
            let refreshToken = try #require(issued.refreshToken)
            #expect(try await Self.run(["--sandbox", "auth", "logout"], variables: variables).exitCode == 0)
            let response =
                #"{"access_token": "\#(issued.accessToken)", "refresh_token": "\#(refreshToken)", "expires_in": 30}"#
            let login = try await Self.run(
                ["--sandbox", "auth", "login", "--with-token"],
                input: response,
                variables: variables
            )
            #expect(login.exitCode == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Signed in to Basecamp as "))

            // 30 seconds left is inside the renewal margin: the token printed is a new one.
            let token = try await Self.run(["--sandbox", "--verbose", "auth", "token"], variables: variables)
            #expect(token.exitCode == 0, "\(token.stderr)")
            let renewed = try folder.tokens(folder.sandboxCredentials)
            #expect(token.stdout == renewed.accessToken + "\n")
            #expect(renewed.accessToken != issued.accessToken)
            for secret in [renewed.accessToken, renewed.refreshToken, refreshToken].compactMap({ $0 }) {
                #expect(!token.stderr.contains(secret))
            }

            let doctor = try await Self.run(["--sandbox", "doctor"], variables: variables)
            #expect(doctor.exitCode == 0, "\(doctor.stdout)\(doctor.stderr)")
            let lines = doctor.stdout.split(separator: "\n")
            #expect(lines.count == 9)
            #expect(lines.allSatisfy { $0.hasPrefix("✔ ") }, "\(doctor.stdout)")
            // The test refresh renewed the token once more and saved it.
            let afterDoctor = try folder.tokens(folder.sandboxCredentials)
            #expect(afterDoctor.accessToken != renewed.accessToken)

            let secrets =
                [issued.accessToken, refreshToken, renewed.accessToken, afterDoctor.accessToken]
                + [renewed.refreshToken, afterDoctor.refreshToken].compactMap { $0 }
            for output in [login, doctor] {
                for secret in secrets {
                    #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
                }
            }
        }
    }

    @Test("A bare token piped to --with-token works; bad input exits 64 and stores nothing")
    func bareTokenAndBadInput() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let bad = try await Self.run(
            ["--sandbox", "auth", "login", "--with-token"],
            input: "{\"access_token\": \"bad-input-secret-1\", \"expires_in\": \"soon\"}",
            variables: folder.variables
        )
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.contains("\"expires_in\" on stdin must be a number of seconds"))
        #expect(!bad.stderr.contains("bad-input-secret-1"))
        let endless = try await Self.run(
            ["--sandbox", "auth", "login", "--with-token"],
            input: String(repeating: "y\n", count: 200_000),
            variables: folder.variables
        )
        #expect(endless.exitCode == 64)
        #expect(endless.stderr.contains("stdin holds more than 64 KiB"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.path))

        let token = "bare-token-abcdef012345"
        let login = try await Self.run(
            ["--sandbox", "auth", "login", "--with-token"],
            input: token + "\n",
            variables: folder.variables
        )
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(!login.stdout.contains(token) && !login.stderr.contains(token))
        let printed = try await Self.run(["--sandbox", "auth", "token"], variables: folder.variables)
        #expect(printed.stdout == token + "\n")
    }

    @Test("Nobody to answer (BASECAMP_NONINTERACTIVE=1, or no terminal and no browser): exit 3 at once, nothing sent")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func unattended() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        try await withBasecampSandbox { sandbox, baseURL in
            // No browser on PATH, no display: stdin is /dev/null.
            let variables = folder.variables.merging([
                "BASECAMP_BASE_URL": baseURL, "BASECAMP_CLIENT_ID": "headless-client", "PATH": folder.url.path,
            ]) { $1 }
            let flagged = try await Self.run(
                ["--json", "auth", "login"],
                variables: variables.merging(["BASECAMP_NONINTERACTIVE": "1"]) { $1 }
            )
            #expect(flagged.exitCode == 3)
            let report = try flagged.errorReport()
            #expect(report.code == "auth_required")
            #expect(report.hint?.contains("'basecamp auth login --with-token'") == true)

            let device = try await Self.run(["auth", "login", "--device"], variables: variables)
            #expect(device.exitCode == 3)
            #expect(device.stderr.contains("no browser can be opened"))
            #expect(sandbox.counters().totalRequests == 0)
        }
    }

    @Test("Profiles side by side: status --all lists each (no secrets), logout --profile removes one")
    func profiles() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let (work, home) = ("work-token-111111", "home-token-222222")
        let first = try await Self.run(
            ["--sandbox", "--profile", "work", "auth", "login", "--with-token"],
            input: work,
            variables: folder.variables
        )
        #expect(first.exitCode == 0, "\(first.stderr)")
        let second = try await Self.run(
            ["--sandbox", "auth", "login", "--with-token"],
            input: home,
            variables: folder.variables.merging(["BASECAMP_PROFILE": "home"]) { $1 }
        )
        #expect(second.exitCode == 0, "\(second.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.url.appending(path: "sandbox/profiles/work/credentials.json").path
            )
        )

        let all = try await Self.run(["--sandbox", "--json", "auth", "status", "--all"], variables: folder.variables)
        #expect(all.exitCode == 0, "\(all.stderr)")
        let listed = try all.json(JSONValue.self)
        #expect(listed[0]?["profile"] == "home")
        // camelCase keys, every one present: a token piped in without an expiry has none.
        #expect(listed[0]?["expiresAt"] == .null)
        #expect(listed[0]?["credentialsFile"]?.stringValue?.hasSuffix("credentials.json") == true)
        #expect(listed[0]?["accounts"]?[0]?["default"] == true)
        #expect(listed[1]?["profile"] == "work")
        #expect(listed[2] == nil)
        #expect(!all.stdout.contains(work) && !all.stdout.contains(home))
        let table = try await Self.run(
            ["--sandbox", "--profile", "work", "auth", "status", "--all"],
            variables: folder.variables
        )
        #expect(table.stdout.contains("work *"))

        let workToken = try await Self.run(
            ["--sandbox", "--profile", "work", "auth", "token"],
            variables: folder.variables
        )
        #expect(workToken.stdout == work + "\n")
        let defaultToken = try await Self.run(["--sandbox", "auth", "token"], variables: folder.variables)
        #expect(defaultToken.exitCode == 3)

        let logout = try await Self.run(
            ["--sandbox", "auth", "logout", "--profile", "work"],
            variables: folder.variables
        )
        #expect(logout.exitCode == 0)
        #expect(logout.stdout.hasPrefix("Signed out: removed the sign-in of the profile work"))
        let after = try await Self.run(["--sandbox", "--json", "auth", "status", "--all"], variables: folder.variables)
        let remaining = try after.json(JSONValue.self)
        #expect(remaining[0]?["profile"] == "home")
        #expect(remaining[1] == nil)
    }

    @Test("doctor: ✘ and exit 1 for a server clock 5 minutes off, and for a broken discovery document")
    func doctorFailures() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let variables = folder.variables.merging(["BASECAMP_TOKEN": "doctor-token-333333"]) { $1 }
        let healthy = try await Self.run(["--sandbox", "--json", "doctor"], variables: variables)
        #expect(healthy.exitCode == 0, "\(healthy.stderr)")
        let healthyChecks = try Self.statuses(healthy)
        #expect(healthyChecks["clock"] == "pass")
        #expect(healthyChecks["authorization_server"] == "pass")
        #expect(!healthyChecks.values.contains("fail"))
        // Every key is present on every check; a passing one has nothing to fix.
        let first = try healthy.json([JSONValue].self).first
        #expect(first?["fix"] == .null)

        let skewed = try await Self.run(
            ["--sandbox", "--json", "doctor"],
            variables: variables.merging(["BASECAMP_SANDBOX_CLOCK_SKEW": "300"]) { $1 }
        )
        #expect(skewed.exitCode == 1)
        #expect(try skewed.errorReport().code == "configuration")
        let skewedChecks = try Self.statuses(skewed)
        #expect(skewedChecks["clock"] == "fail")
        #expect(skewedChecks.filter { $0.value == "fail" }.count == 1)

        let broken = try await Self.run(
            ["--sandbox", "doctor"],
            variables: variables.merging(["BASECAMP_SANDBOX_BROKEN_DISCOVERY": "1"]) { $1 }
        )
        #expect(broken.exitCode == 1)
        let failed = broken.stdout.split(separator: "\n").filter { $0.hasPrefix("✘ ") }
        #expect(failed.count == 1)
        #expect(failed.first?.hasPrefix("✘ Discovery of the sign-in server failed") == true)
        #expect(failed.first?.contains(" Fix: ") == true)
        #expect(broken.stderr.contains("1 of 9 checks failed."))
        #expect(!broken.stdout.contains("\u{1B}["))
    }
}
