import APISandbox
import ArgumentParser
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore

/// The root command: global options, credentials, and one group per service of the Spec.
struct BasecampCommand: CommandLineTool {
    static let configuration = CommandConfiguration(
        commandName: "basecamp",
        abstract: "Every Basecamp 3 operation from the command line, generated from Spec/Basecamp.",
        discussion: GlobalOptions.discussion(
            environmentPrefix: "BASECAMP",
            variables: [
                (name: "BASECAMP_TOKEN", meaning: "an OAuth 2 access token (--token wins over it and over auth login)"),
                (name: "BASECAMP_CLIENT_ID", meaning: "your integration's client id, for auth login"),
                (name: "BASECAMP_CLIENT_SECRET", meaning: "its client secret, for auth login"),
                (name: "BASECAMP_CONFIG_DIR", meaning: "where auth login keeps the sign-in (~/.config/basecamp)"),
                (name: "BASECAMP_PROFILE", meaning: "the sign-in profile to use (--profile wins)"),
                (
                    name: "BASECAMP_NONINTERACTIVE",
                    meaning: "1: never wait for a person; a sign-in that would exits 3 at once"
                ),
                (
                    name: "BASECAMP_CREDENTIALS_URL",
                    meaning: "postgres://… to keep the sign-in's tokens in PostgreSQL, shared by many machines"
                ),
                (name: "BASECAMP_USER_AGENT", meaning: "the User-Agent, \"App (contact)\", sent with every request"),
                (name: "BASECAMP_ACCOUNT_ID", meaning: "the account, the digits after the host (--account wins)"),
                (name: "BASECAMP_SANDBOX_STATE", meaning: "a file --sandbox keeps the account's data in between runs"),
                (
                    name: "BASECAMP_SANDBOX_RATE_LIMIT",
                    meaning: "--sandbox's rate limit, REQUESTS/SECONDS or off (50/10)"
                ),
                (name: "BASECAMP_SANDBOX_MAX_UPLOAD", meaning: "the largest file --sandbox takes, e.g. 2G (5G)"),
            ]
        ) + """


            With an account, sign in once with 'basecamp auth login' (see its --help), then use any command. Every example here runs as printed without one, against the built-in sandbox:
              basecamp --sandbox projects list
              basecamp --sandbox todos list --todolist 1069479338
              basecamp --sandbox todos list --todolist 1069479338 --format csv --fields id,content,creator.name
              basecamp --sandbox todos list --todolist 1069479338 --max-pages 1
              basecamp --sandbox todos edit 1069479395 --due-on tomorrow --clear-description
              basecamp --sandbox api GetProject --param projectId=2085958504
            Every operation: basecamp operations. Any of them, raw: basecamp api OPERATION_ID.
            """,
        version: "0.1.0",
        subcommands: [
            AuthCommand.self, AccountsCommand.self, DoctorCommand.self, APICommand.self, OperationsCommand.self,
            DownloadCommand.self, UploadCommand.self,
        ]
            + ServiceCommands.all
    )

    static let environmentPrefix = "BASECAMP"
    static let sandboxBasePath = BasecampSandboxModule.defaultBasePath
    static let secretOptionNames = ["--token", "--client-secret", "--secret"]
    static let secretEnvironmentVariables = ["BASECAMP_TOKEN", "BASECAMP_CLIENT_SECRET", "BASECAMP_WEBHOOK_SECRET"]

    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxModules(environment: CLIEnvironment) throws -> [any SandboxModule] {
        try sandboxConfiguration(environment: environment).modules
    }

    /// The Basecamp module, on the server clock `BASECAMP_SANDBOX_CLOCK_SKEW` sets (the `Date`
    /// header, token times and every time the API writes follow it).
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxConfiguration(environment: CLIEnvironment) throws -> SandboxConfiguration {
        let clock = try BasecampSandboxModule.clock(fromEnvironment: environment.variables)
        let timeSource: any TimeSource = clock ?? SystemTimeSource()
        let authorization = BasecampSandboxAuthorization(
            options: try sandboxAuthorizationOptions(environment.variables),
            now: { timeSource.now() }
        )
        var module = BasecampSandboxModule(authorization: authorization)
        if let path = environment.variables["BASECAMP_SANDBOX_STATE"], !path.isEmpty {
            module = try BasecampSandboxModule(stateFile: URL(fileURLWithPath: path), authorization: authorization)
        }
        try module.configure(fromEnvironment: environment.variables)
        module.timeSource = timeSource
        return SandboxConfiguration(modules: [module], clock: clock)
    }

    /// The sandbox's sign-in settings from `BASECAMP_SANDBOX_*`; without a state file of their
    /// own, the codes and tokens it issues are kept beside the sandbox sign-in, so the next run's
    /// sandbox accepts and refreshes them.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxAuthorizationOptions(_ variables: [String: String]) throws -> SandboxAuthorizationOptions {
        var options = try SandboxAuthorizationOptions.fromEnvironment(variables)
        if options.stateFile == nil, let files = SignInFiles(variables: variables, sandbox: true) {
            options.stateFile = files.sandboxAuthorizationStateURL
        }
        return options
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("An OAuth 2 access token (prefer BASECAMP_TOKEN).", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("The account id (or set BASECAMP_ACCOUNT_ID).", valueName: "id"))
    var account: String?

    @Option(
        help: ArgumentHelp(
            "The sign-in profile to use, kept beside the others (or set BASECAMP_PROFILE; default: the one sign-in).",
            valueName: "name"
        )
    )
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Stop a list after this many pages and say it was cut short, as --limit does (list commands and api).",
            valueName: "n"
        )
    )
    var maxPages: Int?

    func validate() throws {
        if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
    }
}

/// A `basecamp` subcommand: it reaches the root through `@ParentCommand var root`, which holds the
/// global options, the token and the account.
protocol BasecampSubcommand: ToolCommand {
    /// The root command.
    var root: BasecampCommand { get }
}

extension BasecampSubcommand {
    var global: GlobalOptions { root.global }

    /// The sign-in profile `--profile` or `BASECAMP_PROFILE` names, else the default one.
    func signInProfile(_ context: CommandContext) throws -> SignInProfile {
        try SignInProfile.selected(option: root.profile, context: context)
    }

    /// The files of the selected profile's sign-in.
    func signInFiles(_ context: CommandContext) throws -> SignInFiles {
        try SignInFiles(context: context, profile: signInProfile(context))
    }
}
