import APISandbox
import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook
import MarkbookSandbox

/// The root command: global options, credentials and the subcommands.
struct MarkbookTool: CommandLineTool {
    static let configuration = CommandConfiguration(
        commandName: "markbook",
        abstract: "Markbook Online: markbooks, results, students, classes and backups.",
        discussion: GlobalOptions.discussion(
            environmentPrefix: "MARKBOOK",
            variables: [
                (name: "MARKBOOK_API_KEY", meaning: "the school's API key (--api-key)"),
                (name: "MARKBOOK_USERNAME", meaning: "a user with \"Allow user administration\" (--username)"),
                (name: "MARKBOOK_PASSWORD", meaning: "that user's password (--password)"),
                (name: "MARKBOOK_SANDBOX_STATE", meaning: "a file --sandbox keeps the school's data in between runs"),
                (
                    name: "MARKBOOK_SANDBOX_BACKUP",
                    meaning: "--sandbox's backup: scheduled (as the API), ready, pending or none"
                ),
                (
                    name: "MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER",
                    meaning: "N: --sandbox fails every result write after the first N"
                ),
                (
                    name: "MARKBOOK_SANDBOX_FAIL_RESULT_CELLS",
                    meaning: "STUDENTKEY:TASKKEY,...: --sandbox fails writes to these results"
                ),
                (
                    name: "MARKBOOK_SANDBOX_FAIL_RESULTS_WITH",
                    meaning: "how they fail: error[:REASON], http:CODE or lost:CODE"
                ),
            ]
        )
            + "\n\nmarkbook's own exit codes (backup download, import):\n   11 no_backup          75 backup_pending\n   12 import_conflict"
            + "\n\nFor the real API, set MARKBOOK_BASE_URL to https://smpcsonline.com.au/markbook/api/v1.5."
            + "\n\nTry it without an account:\n  markbook --sandbox show 1000001\n  markbook --sandbox list --format csv"
            + "\n  markbook --sandbox export 1000001 --output 10MAT.csv",
        version: "0.1.0",
        subcommands: [
            ListCommand.self, UsersCommand.self, ShowCommand.self, OutcomesCommand.self, ResultCommand.self,
            StudentCommand.self, ClassCommand.self, BackupCommand.self, CreateCommand.self, ExportCommand.self,
            ImportCommand.self,
        ]
    )

    static let environmentPrefix = "MARKBOOK"
    static let sandboxBasePath = MarkbookSandboxModule.defaultBasePath
    static let secretOptionNames = ["--api-key", "--password"]
    static let secretEnvironmentVariables = ["MARKBOOK_API_KEY", "MARKBOOK_PASSWORD"]

    /// Under `--sandbox` any credentials are accepted, so real ones in the environment do not
    /// get in the way; the sandbox's clock is the command's.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxModules(environment: CLIEnvironment) throws -> [any SandboxModule] {
        let clock = environment.clock
        let options = try MarkbookSandboxOptions(environment: environment.variables)
        guard let path = environment.variables["MARKBOOK_SANDBOX_STATE"], !path.isEmpty else {
            return [MarkbookSandboxModule(acceptsAnyCredentials: true, options: options, now: { clock.now() })]
        }
        return [
            try MarkbookSandboxModule(
                stateFile: URL(fileURLWithPath: path),
                acceptsAnyCredentials: true,
                options: options,
                now: { clock.now() }
            )
        ]
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var credentials: CredentialOptions
}

/// The account options every command shares; the environment variables are preferred (flags
/// show up in the process list).
struct CredentialOptions: ParsableArguments {
    @Option(name: .customLong("api-key"), help: ArgumentHelp("The school's API key.", valueName: "key"))
    var apiKey: String?

    @Option(help: ArgumentHelp("The Markbook user name.", valueName: "user"))
    var username: String?

    @Option(help: ArgumentHelp("The user's password.", valueName: "password"))
    var password: String?
}

/// A `markbook` command that talks to the API: it gets a ready client, and its failures get
/// hints that name commands rather than SDK methods.
protocol MarkbookCommand: ToolCommand {
    /// The root command, through `@ParentCommand`.
    var tool: MarkbookTool { get }

    /// Does the command's work with a client for the API the options point at.
    func execute(in context: CommandContext, client: MarkbookClient) async throws
}

extension MarkbookCommand {
    var global: GlobalOptions { tool.global }

    func run(in context: CommandContext) async throws {
        let client = try await context.markbookClient(tool.credentials)
        do {
            try await execute(in: context, client: client)
        } catch let error as APIError where error.details.rawStatus != nil {
            // An answer from the API: restate the SDK's hint in terms of commands.
            switch error.code {
            case .notFound:
                throw error.withHint(
                    "See 'markbook list' for markbook keys and 'markbook show KEY' for student, task and class keys."
                )
            case .authRequired:
                throw error.withHint(
                    "Check MARKBOOK_API_KEY, MARKBOOK_USERNAME and MARKBOOK_PASSWORD; the user needs the "
                        + "\"Allow user administration\" permission."
                )
            default:
                throw error
            }
        }
    }
}

extension CommandContext {
    /// A client for the API the global options point at, with the account from the flags or
    /// the environment (under `--sandbox`, the sandbox's stand-in account when none is given).
    func markbookClient(_ credentials: CredentialOptions) async throws -> MarkbookClient {
        let connection = try await connection()
        let account = MarkbookSandboxModule.Account.sandbox
        let apiKey = try credential(
            credentials.apiKey,
            option: "--api-key",
            variable: "MARKBOOK_API_KEY",
            sandboxValue: account.apiKey
        )
        // The user name is not a secret (it is a login id, listed by `markbook users`), so it is
        // resolved like a credential but not registered for scrubbing.
        let username = credentials.username.flatMap { $0.isEmpty ? nil : $0 } ?? variable("MARKBOOK_USERNAME")
        guard let username = username ?? (usesSandbox ? account.username : nil) else {
            throw APIError.authRequired(
                APIError.Details(message: "No value for --username.", hint: "Set MARKBOOK_USERNAME or pass --username.")
            )
        }
        let password = try credential(
            credentials.password,
            option: "--password",
            variable: "MARKBOOK_PASSWORD",
            sandboxValue: account.password
        )
        return try MarkbookClient(
            apiKey: apiKey,
            username: username,
            password: password,
            configuration: connection.configuration,
            transport: connection.transport
        )
    }
}

extension APIError {
    /// The same error with a hint for the command line (which command shows the state to check).
    func withHint(_ hint: String) -> APIError {
        var copy = self
        copy.details.hint = hint
        return copy
    }
}
