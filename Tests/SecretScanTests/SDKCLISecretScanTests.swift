import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import MarkbookSandbox
import Testing

@testable import BasecampCLI
@testable import MarkbookCLI

/// `markbook` and `basecamp` with `--verbose` through success and failure paths, scanned for the
/// credentials they were given and for the session values the server issued (which the runner
/// does not know about, so only the SDK's own redaction can keep them out).
@Suite("Secret scan: markbook and basecamp")
struct SDKCLISecretScanTests {
    static let apiKey = "SCANKEY0a1b2c3d4e5f60718293a4b5c"
    static let username = "scan.admin"
    static let password = "scan-PASSWORD-mb-4471"
    static let token = "scan-TOKEN-bc-8812"
    static let revokedToken = "scan-TOKEN-revoked-1193"

    /// Every form a credential could leak in: as given, percent-encoded, in a Basic header.
    static func forms(_ secret: String) -> [String] {
        [
            secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
            Data(secret.utf8).base64EncodedString(),
        ]
    }

    static func expectClean(_ result: CommandResult, _ label: String, sessions: [String] = []) {
        let secrets = [apiKey, password, token, revokedToken].flatMap(forms) + sessions.filter { $0.count >= 6 }
        for secret in secrets {
            #expect(!result.stdout.contains(secret), "\(label): stdout shows a secret")
            #expect(!result.stderr.contains(secret), "\(label): stderr shows a secret")
        }
    }

    /// Runs `tool` once per argument list, expecting each run to succeed or each to fail, and
    /// returns the results labelled for the scan.
    static func run<Tool: CommandLineTool>(
        _ tool: Tool.Type,
        _ runs: [([String], [String: String])],
        succeed: Bool
    ) async -> [(String, CommandResult)] {
        var results: [(String, CommandResult)] = []
        for (arguments, variables) in runs {
            let result = await CLIRunner.capture(tool, arguments: arguments, variables: variables)
            let label = "\(Tool.toolName) \(arguments)"
            #expect((result.exitCode == 0) == succeed, "\(label) exited \(result.exitCode): \(result.stderr)")
            results.append((label, result))
        }
        return results
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("markbook: reads with retries, wrong password, no password, unknown markbook, refused connection")
    func markbook() async throws {
        let module = MarkbookSandboxModule(
            account: MarkbookSandboxModule.Account(
                apiKey: Self.apiKey,
                username: Self.username,
                password: Self.password
            )
        )
        // Each command logs in first. The faults land on the first two commands' data requests
        // (a failed login is not retried, which would end the command rather than show a retry).
        let faults = FaultInjection(sequence: [
            nil, .serviceUnavailable, nil, nil, .tooManyRequests(retryAfterSeconds: 1),
        ])
        var results: [(String, CommandResult)] = []
        let environment = try await Sandbox.withRunning(
            configuration: SandboxConfiguration(modules: [module], faults: faults)
        ) { sandbox in
            let base = sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath).absoluteString
            let environment = [
                "MARKBOOK_BASE_URL": base, "MARKBOOK_API_KEY": Self.apiKey, "MARKBOOK_USERNAME": Self.username,
                "MARKBOOK_PASSWORD": Self.password,
            ]
            let reads = [
                ["list"], ["users"], ["show", "1000001"], ["--json", "show", "1000001"], ["outcomes", "1000001"],
            ]
            results += await Self.run(MarkbookTool.self, reads.map { (["--verbose"] + $0, environment) }, succeed: true)
            // Credentials as options rather than variables.
            let viaOptions = await CLIRunner.capture(
                MarkbookTool.self,
                arguments: [
                    "--verbose", "--base-url", base, "--api-key", Self.apiKey, "--username", Self.username,
                    "--password", Self.password, "list",
                ]
            )
            #expect(viaOptions.exitCode == 0, "\(viaOptions.stderr)")
            results.append(("markbook list (options)", viaOptions))
            // Failures: an unknown markbook, a wrong password, missing credentials.
            let failures: [([String], [String: String])] = [
                (["--verbose", "show", "999"], environment),
                (
                    ["--verbose", "--json", "list"],
                    environment.merging(["MARKBOOK_PASSWORD": Self.password + "x"]) { $1 }
                ),
                (["--verbose", "list"], environment.merging(["MARKBOOK_PASSWORD": Self.password + "x"]) { $1 }),
                (["--verbose", "list"], ["MARKBOOK_BASE_URL": base, "MARKBOOK_API_KEY": Self.apiKey]),
            ]
            results += await Self.run(MarkbookTool.self, failures, succeed: false)
            return environment
        }
        let sessions = module.issuedSessionValues()
        let refused = await CLIRunner.capture(
            MarkbookTool.self,
            arguments: ["--verbose", "--timeout", "2", "list"],
            variables: environment
        )
        #expect(refused.exitCode == 6, "\(refused.stderr)")
        results.append(("markbook refused", refused))

        #expect(!sessions.isEmpty, "the sandbox issued no session, so the scan proves nothing about them")
        for (label, result) in results {
            Self.expectClean(result, label, sessions: sessions)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("basecamp: reads with retries, revoked token, not found, refused connection")
    func basecamp() async throws {
        let module = BasecampSandboxModule(rejectedTokens: [Self.revokedToken])
        let faults = FaultInjection(sequence: [.serviceUnavailable, nil, .tooManyRequests(retryAfterSeconds: 1), nil])
        var results: [(String, CommandResult)] = []
        let environment = try await Sandbox.withRunning(
            configuration: SandboxConfiguration(modules: [module], faults: faults)
        ) { sandbox in
            let base = sandbox.baseURL.appending(path: "basecamp").absoluteString
            let environment = [
                "BASECAMP_BASE_URL": base, "BASECAMP_TOKEN": Self.token,
                "BASECAMP_ACCOUNT_ID": BasecampSandboxModule.defaultAccountID,
            ]
            let reads = [["projects", "list"], ["--json", "projects", "list"]]
            results += await Self.run(
                BasecampCommand.self,
                reads.map { (["--verbose"] + $0, environment) },
                succeed: true
            )
            let viaOption = await CLIRunner.capture(
                BasecampCommand.self,
                arguments: ["--verbose", "--token", Self.token, "projects", "list"],
                variables: ["BASECAMP_BASE_URL": base, "BASECAMP_ACCOUNT_ID": BasecampSandboxModule.defaultAccountID]
            )
            #expect(viaOption.exitCode == 0, "\(viaOption.stderr)")
            results.append(("basecamp --token", viaOption))
            let failures: [([String], [String: String])] = [
                (["--verbose", "todos", "get", "1"], environment),
                (
                    ["--verbose", "--json", "projects", "list"],
                    environment.merging(["BASECAMP_TOKEN": Self.revokedToken]) { $1 }
                ),
                (["--verbose", "projects", "list"], environment.merging(["BASECAMP_TOKEN": Self.revokedToken]) { $1 }),
            ]
            results += await Self.run(BasecampCommand.self, failures, succeed: false)
            return environment
        }
        let refused = await CLIRunner.capture(
            BasecampCommand.self,
            arguments: ["--verbose", "--timeout", "2", "projects", "list"],
            variables: environment
        )
        #expect(refused.exitCode == 6, "\(refused.stderr)")
        results.append(("basecamp refused", refused))
        for (label, result) in results {
            Self.expectClean(result, label)
        }
    }
}

/// The output paths of failures found after parsing: a usage error that quotes the value given,
/// a list printed before the error that stopped it, and a write that fails.
@Suite("Secret scan: usage errors, partial lists, failed writes")
struct FailurePathSecretScanTests {
    @Test("A secret given as a refused argument value is not quoted back")
    func usageError() async {
        let password = SDKCLISecretScanTests.password
        for json in [[], ["--json"]] {
            let result = await CLIRunner.capture(
                MarkbookTool.self,
                arguments: json + [
                    "--sandbox", "--password", password, "result", "set", "1000001", "--student", "5004", "--task",
                    "4003", "--result", password,
                ]
            )
            #expect(result.exitCode == 64)
            #expect(result.stderr.contains("[REDACTED]"))
            SDKCLISecretScanTests.expectClean(result, "markbook result set \(json)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("basecamp --verbose: a list that stops on a failed page")
    func partialList() async throws {
        let route = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/todolists/1069479338/todos.json"
        let faults = FaultInjection(sequence: [nil, .serviceUnavailable], pathPrefixes: [route])
        let sandbox = try await Sandbox.start(
            configuration: SandboxConfiguration(modules: [BasecampSandboxModule()], faults: faults)
        )
        let variables = [
            "BASECAMP_BASE_URL": sandbox.baseURL.appending(path: "basecamp").absoluteString,
            "BASECAMP_TOKEN": SDKCLISecretScanTests.token,
            "BASECAMP_ACCOUNT_ID": BasecampSandboxModule.defaultAccountID,
        ]
        let result = await CLIRunner.capture(
            BasecampCommand.self,
            arguments: ["--verbose", "--no-retry", "todos", "list", "--todolist", "1069479338"],
            variables: variables
        )
        await sandbox.stop()
        #expect(result.exitCode == 7)
        #expect(result.stderr.contains("The list stopped early"))
        SDKCLISecretScanTests.expectClean(result, "basecamp partial list")
    }

    @Test("A failed write reports without the secrets")
    func failedWrite() async {
        let stdout = CapturedOutput(failingAfter: 10, with: OutputFailure(code: ENOSPC))
        let stderr = CapturedOutput()
        let code = await CLIRunner.run(
            MarkbookTool.self,
            arguments: ["--sandbox", "--verbose", "--password", SDKCLISecretScanTests.password, "show", "1000001"],
            environment: CLIEnvironment(standardOutput: stdout, standardError: stderr)
        )
        #expect(code == 1)
        let result = CommandResult(exitCode: code, stdout: stdout.text, stderr: stderr.text)
        #expect(result.stderr.contains("Cannot write the results"))
        SDKCLISecretScanTests.expectClean(result, "markbook show > /dev/full")
    }
}
