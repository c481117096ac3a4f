import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore

@testable import BasecampCLI

/// Runs `basecamp` in-process in UTC with only the given variables.
func basecamp(
    _ arguments: [String],
    variables: [String: String] = [:],
    configure: (inout CLIEnvironment) -> Void = { _ in }
) async -> CommandResult {
    await CLIRunner.capture(BasecampCommand.self, arguments: arguments, variables: variables, configure: configure)
}

/// Starts a sandbox with the Basecamp module (and, optionally, faults) on `host`, passes
/// `{sandbox}/basecamp` to `body`, and stops it whatever happens.
@available(macOS 14, iOS 17, tvOS 17, *)
func withBasecampSandbox(
    module: BasecampSandboxModule = BasecampSandboxModule(),
    faults: FaultInjection = .none,
    host: String = "127.0.0.1",
    _ body: (Sandbox, String) async throws -> Void
) async throws {
    let sandbox = try await Sandbox.start(
        host: host,
        configuration: SandboxConfiguration(modules: [module], faults: faults)
    )
    do {
        try await body(sandbox, sandbox.baseURL.appending(path: "basecamp").absoluteString)
        await sandbox.stop()
    } catch {
        await sandbox.stop()
        throw error
    }
}

/// The variables a real run against a sandbox started by the test would set.
func credentials(_ baseURL: String, token: String = "test-token-1234") -> [String: String] {
    [
        "BASECAMP_BASE_URL": baseURL,
        "BASECAMP_TOKEN": token,
        "BASECAMP_ACCOUNT_ID": BasecampSandbox.BasecampSandboxModule.defaultAccountID,
    ]
}

/// A to-do as `--json` prints it: the SDK's field names.
struct TodoJSON: Decodable {
    var id: Int
    var title: String
    var content: String
    var completed: Bool
    var dueOn: String?
    var appURL: String
    var createdAt: String
}

/// Runs the built `basecamp` as a process, for tests that need the process boundary.
func runBuiltBasecamp(_ arguments: [String], variables: [String: String] = [:]) async throws -> CommandResult {
    try await BuiltExecutable.run("basecamp", arguments: arguments, variables: variables)
}

/// Runs the built `basecamp` in `directory` (its current directory), for commands that write
/// files named by the server there.
func runBuiltBasecamp(
    _ arguments: [String],
    in directory: URL,
    filePath: String = #filePath
) async throws -> CommandResult {
    let process = Process()
    process.executableURL = try BuiltExecutable.url(named: "basecamp", filePath: filePath)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = BuiltExecutable.environment([:])
    return try await process.runToEnd()
}

/// The package's root folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
