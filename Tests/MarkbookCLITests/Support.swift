import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import MarkbookSandbox
import Testing

@testable import MarkbookCLI

/// The account the CLI tests pass through the environment.
enum CLIAccount {
    static let apiKey = "CLIKEY00a1b2c3d4e5f6a7b8c9d0e1f2"
    static let username = "cli.admin"
    static let password = "pw-Cli-Battery-Staple-9"

    static let variables = [
        "MARKBOOK_API_KEY": apiKey, "MARKBOOK_USERNAME": username, "MARKBOOK_PASSWORD": password,
    ]

    @available(macOS 14, iOS 17, tvOS 17, *)
    static var account: MarkbookSandboxModule.Account {
        MarkbookSandboxModule.Account(apiKey: apiKey, username: username, password: password)
    }
}

/// Checks both streams of a run for the account's secrets and any session value in `sessions`.
func expectNoSecrets(
    _ result: CommandResult,
    sessions: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let text = result.stdout + "\n" + result.stderr
    var hits: [String] = []
    if text.contains(CLIAccount.apiKey) { hits.append("API key") }
    if text.contains(CLIAccount.password) { hits.append("password") }
    if sessions.contains(where: { $0.count >= 4 && text.contains($0) }) { hits.append("session value") }
    #expect(hits.isEmpty, "secret shown: \(hits.joined(separator: ", "))", sourceLocation: sourceLocation)
}

/// Runs `markbook` in-process (UTC, the given clock) and checks its output for secrets.
func markbook(
    _ arguments: [String],
    variables: [String: String] = [:],
    sessions: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout CLIEnvironment) -> Void = { _ in }
) async -> CommandResult {
    let result = await CLIRunner.capture(
        MarkbookTool.self,
        arguments: arguments,
        variables: variables,
        configure: configure
    )
    expectNoSecrets(result, sessions: sessions, sourceLocation: sourceLocation)
    return result
}

/// A sandbox the test owns (so state persists across several commands), strict about the
/// account, on `clock`; runs `body` with its base URL, the module, and a function that runs
/// `markbook` in-process against it as the test account, on the same clock.
@available(macOS 14, iOS 17, tvOS 17, *)
func withSandbox(
    clock: TestClock = TestClock(start: Date(timeIntervalSince1970: 1_718_333_912)),
    _ body: (String, MarkbookSandboxModule, _ run: ([String]) async -> CommandResult) async throws -> Void
) async throws {
    let module = MarkbookSandboxModule(account: CLIAccount.account, now: { clock.now() })
    try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module])) { sandbox in
        let baseURL = sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath).absoluteString
        try await body(baseURL, module) { arguments in
            await markbook(["--base-url", baseURL] + arguments, variables: CLIAccount.variables) { $0.clock = clock }
        }
    }
}

/// Runs the built `markbook` as a process, for tests that need the process boundary.
func runBuiltMarkbook(_ arguments: [String], variables: [String: String] = [:]) async throws -> CommandResult {
    try await BuiltExecutable.run("markbook", arguments: arguments, variables: variables)
}
