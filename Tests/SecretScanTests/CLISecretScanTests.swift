import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Hummingbird
import MonashSandbox
import Testing

@testable import MonashCLI

/// Runs every command-line tool with `--verbose` through success and failure paths, handing it
/// known secret values wherever a user could put one, and fails if any of them shows up in
/// stdout or stderr — which carry the results, the verbose log lines (LoggingHooks), the retry
/// notes and the error reports.
///
/// `monash` takes no credentials of its own, so its secrets travel where a user could still put
/// them: the password of the base URL's user info and credential-looking environment variables.
/// The in-process runner only scrubs secrets a tool declares, and `monash` declares none, so a hit
/// here is a real leak, not something the runner hid.
///
/// `markbook` and `basecamp` are scanned in ``SDKCLISecretScanTests``.
@Suite("Secret scan: every CLI, --verbose, success and failure")
struct CLISecretScanTests {
    /// Distinctive values, so a hit cannot be a coincidence.
    static let password = "scan-PASSWORD-7f3a"
    static let token = "scan-TOKEN-91c2"
    static let apiKey = "scan-APIKEY-55de"
    static let session = "scan-SESSION-0b44"

    /// Every form a secret could take on the way out: as given, percent-encoded, and inside a
    /// Basic credential.
    static var forbidden: [String] {
        let plain = [password, token, apiKey, session]
        let basic = Data("scan-user:\(password)".utf8).base64EncodedString()
        return plain + [basic, "scan-PASSWORD", "scan-TOKEN", "scan-APIKEY", "scan-SESSION"]
    }

    /// Environment variables a user might export; none should ever be echoed.
    static var secretVariables: [String: String] {
        [
            "MONASH_TOKEN": token, "MONASH_API_KEY": apiKey, "MONASH_PASSWORD": password,
            "MONASH_SESSION": session, "MARKBOOK_API_KEY": apiKey, "BASECAMP_TOKEN": token,
        ]
    }

    /// `http://scan-user:<password>@host:port/path`.
    static func withUserInfo(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.user = "scan-user"
        components?.password = password
        return components?.string ?? url.absoluteString
    }

    static func expectClean(_ result: CommandResult, _ label: String) {
        for secret in forbidden {
            #expect(!result.stdout.contains(secret), "\(label): stdout shows \(secret):\n\(result.stdout)")
            #expect(!result.stderr.contains(secret), "\(label): stderr shows \(secret):\n\(result.stderr)")
        }
    }

    static func monash(_ arguments: [String], variables: [String: String] = [:]) async -> CommandResult {
        await CLIRunner.capture(Monash.self, arguments: arguments, variables: secretVariables.merging(variables) { $1 })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("monash: success paths, with faults to force retries")
    func monashSuccess() async throws {
        // Every other request to the schedule gets a 503 or a 429 first, so the verbose output
        // includes failed attempts and retry lines as well as successes.
        let faults = FaultInjection(
            sequence: [.serviceUnavailable, nil, .tooManyRequests(retryAfterSeconds: 1), nil, nil, nil, nil, nil]
        )
        let configuration = SandboxConfiguration(modules: [MonashSandboxModule()], faults: faults)
        let ran = try await Sandbox.withRunning(configuration: configuration) { sandbox in
            let base = Self.withUserInfo(sandbox.baseURL.appending(path: MonashSandboxModule.defaultBasePath))
            var ran = 0
            for command in [["timetable"], ["parking"], ["buses"], ["timetable", "--json"], ["parking", "--json"]] {
                let result = await Self.monash(["--verbose", "--base-url", base] + command)
                #expect(result.exitCode == 0, "\(command): \(result.stderr)")
                #expect(result.stderr.contains("[http]"), "\(command): --verbose wrote no HTTP lines")
                Self.expectClean(result, "monash \(command)")
                ran += 1
            }
            // The base URL set through the environment instead of the option.
            let viaEnvironment = await Self.monash(["--verbose", "parking"], variables: ["MONASH_BASE_URL": base])
            #expect(viaEnvironment.exitCode == 0, "\(viaEnvironment.stderr)")
            Self.expectClean(viaEnvironment, "monash parking (MONASH_BASE_URL)")
            return ran
        }
        #expect(ran == 5)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("monash: failure paths (HTTP 500, refused connection, bad URL, bad options)")
    func monashFailures() async throws {
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [failingModule])) { sandbox in
            let broken = Self.withUserInfo(sandbox.baseURL.appending(path: "broken"))
            for extra in [[], ["--json"], ["--no-retry"]] {
                let result = await Self.monash(["--verbose", "--base-url", broken, "timetable"] + extra)
                #expect(result.exitCode != 0, "HTTP 500 should fail")
                #expect(result.stderr.contains("[http]"))
                Self.expectClean(result, "monash 500 \(extra)")
            }
        }

        try await withRefusingPort { port in
            let refused = Self.withUserInfo(try #require(URL(string: "http://127.0.0.1:\(port)/monash")))
            for extra in [[], ["--json"]] {
                let arguments = ["--verbose", "--timeout", "2", "--base-url", refused, "parking"] + extra
                let result = await Self.monash(arguments)
                #expect(result.exitCode == 6, "refused connection: \(result.stderr)")
                Self.expectClean(result, "monash refused \(extra)")
            }
        }

        // Rejected before any request: not a URL, plain http to a public host, conflicting options.
        let rejected: [[String]] = [
            ["--verbose", "--base-url", "http://scan-user:\(Self.password)@exa mple.com/", "parking"],
            ["--verbose", "--base-url", "http://scan-user:\(Self.password)@example.com/monash", "parking"],
            ["--verbose", "--sandbox", "--base-url", "https://scan-user:\(Self.password)@example.com/", "parking"],
            ["--verbose", "--json", "--base-url", "http://scan-user:\(Self.password)@example.com/", "parking"],
            ["--verbose", "parking", "--bogus", Self.token],
        ]
        for arguments in rejected {
            let result = await Self.monash(arguments)
            #expect(result.exitCode != 0, "\(arguments) should be rejected")
            Self.expectClean(result, "monash \(arguments)")
        }
    }
}

/// A schedule service that always fails with a body quoting nothing secret.
@available(macOS 14, iOS 17, tvOS 17, *)
var failingModule: CannedResponseModule {
    .failing(path: "broken/schedules", message: "database unavailable", requestID: "req-500")
}
