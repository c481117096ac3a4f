public import APISandbox
public import ArgumentParser

/// The root command of one of the package's command-line tools (`monash`, `basecamp`, `markbook`).
///
/// The root declares the shared options (see ``GlobalOptions/Help``) and says how the tool finds
/// its API: the prefix of its environment variables and the sandbox modules that play the API for
/// `--sandbox`. Its subcommands conform to ``ToolCommand``. Start it with ``CLIRunner/main(_:)``.
///
/// ```swift
/// struct Monash: CommandLineTool {
///     static let configuration = CommandConfiguration(
///         commandName: "monash",
///         subcommands: [TimetableCommand.self]
///     )
///     static let environmentPrefix = "MONASH"
///     static let sandboxBasePath = "/monash"
///
///     @available(macOS 14, iOS 17, tvOS 17, *)
///     static func sandboxModules(environment: CLIEnvironment) -> [any SandboxModule] {
///         [MonashSandboxModule()]
///     }
///
///     @Option(name: Help.baseURLName, help: Help.baseURL(environmentPrefix: environmentPrefix))
///     var baseURL: String?
///     @Flag(help: Help.sandbox) var sandbox = false
///     @Flag(help: Help.json) var json = false
///     @Option(help: Help.format) var format: OutputFormat?
///     @Option(help: Help.fields) var fields: FieldList?
///     @Flag(name: Help.verboseName, help: Help.verbose) var verbose = false
///     @Flag(name: Help.noRetryName, help: Help.noRetry) var noRetry = false
///     @Option(help: Help.timeout) var timeout = GlobalOptions.defaultTimeout
///
///     func validate() throws { try global.validate() }
/// }
/// ```
public protocol CommandLineTool: AsyncParsableCommand {
    /// The prefix of the tool's environment variables, e.g. `MONASH` for `MONASH_BASE_URL`.
    static var environmentPrefix: String { get }

    /// Where the tool's API is mounted on the sandbox, e.g. `/monash`; joined to the sandbox's
    /// address to make the base URL under `--sandbox`.
    static var sandboxBasePath: String { get }

    /// Option names whose values are secret (`--token`, `--password`): their values are scrubbed
    /// from everything the tool prints, even from argument-parsing errors. Empty by default.
    static var secretOptionNames: [String] { get }

    /// Environment variables whose values are secret; scrubbed like ``secretOptionNames``.
    /// Empty by default.
    static var secretEnvironmentVariables: [String] { get }

    /// Whether an `http` base URL is accepted for any host, not only loopback: for APIs that
    /// carry no credentials, where plain HTTP exposes nothing secret. `false` by default.
    static var allowsInsecureHTTP: Bool { get }

    /// The sandbox modules that play the tool's API under `--sandbox`.
    ///
    /// - Parameter environment: The command's environment, for tool-specific sandbox settings
    ///   such as `MONASH_SANDBOX_WEEK`.
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for a sandbox setting that cannot be used, or
    ///   `SandboxStateFileError` for a state file that cannot be read or written; the command
    ///   then fails with exit 1.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxModules(environment: CLIEnvironment) throws -> [any SandboxModule]

    /// The whole sandbox `--sandbox` starts: by default the ``sandboxModules(environment:)``
    /// and nothing else; a tool whose sandbox settings reach beyond its routes (such as a skewed
    /// clock for the `Date` header) builds the configuration itself.
    ///
    /// - Throws: As ``sandboxModules(environment:)``.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxConfiguration(environment: CLIEnvironment) throws -> SandboxConfiguration

    /// `--base-url`, declared with ``GlobalOptions/Help``'s name and help, as the options below.
    var baseURL: String? { get }

    /// `--sandbox`.
    var sandbox: Bool { get }

    /// `--json`.
    var json: Bool { get }

    /// `--format`.
    var format: OutputFormat? { get }

    /// `--fields`.
    var fields: FieldList? { get }

    /// `-v`, `--verbose`.
    var verbose: Bool { get }

    /// `--no-retry`.
    var noRetry: Bool { get }

    /// `--timeout`.
    var timeout: Double { get }
}

extension CommandLineTool {
    /// No secret options.
    public static var secretOptionNames: [String] { [] }

    /// No secret environment variables.
    public static var secretEnvironmentVariables: [String] { [] }

    /// Plain HTTP only to loopback hosts.
    public static var allowsInsecureHTTP: Bool { false }

    /// The tool's modules on an otherwise default sandbox.
    @available(macOS 14, iOS 17, tvOS 17, *)
    public static func sandboxConfiguration(environment: CLIEnvironment) throws -> SandboxConfiguration {
        SandboxConfiguration(modules: try sandboxModules(environment: environment))
    }

    /// The names and help of the shared options, for the root's declarations.
    public typealias Help = GlobalOptions.Help

    /// The shared options the command line gave, as one value. The root's `validate()` calls
    /// its ``GlobalOptions/validate()``.
    public var global: GlobalOptions {
        GlobalOptions(
            baseURL: baseURL,
            sandbox: sandbox,
            json: json,
            format: format,
            fields: fields,
            verbose: verbose,
            noRetry: noRetry,
            timeout: timeout
        )
    }

    /// The name the tool is invoked by, e.g. `monash`.
    public static var toolName: String {
        configuration.commandName ?? _commandName
    }
}

/// A command of a ``CommandLineTool`` that does the work: it receives a ``CommandContext`` with
/// the resolved global options, the streams and the API connection.
///
/// ```swift
/// struct ParkingCommand: ToolCommand {
///     static let configuration = CommandConfiguration(commandName: "parking")
///     @ParentCommand var monash: Monash
///     var global: GlobalOptions { monash.global }
///
///     func run(in context: CommandContext) async throws {
///         let connection = try await context.connection()
///         // ... build the SDK client from connection.configuration and connection.transport ...
///     }
/// }
/// ```
public protocol ToolCommand: AsyncParsableCommand {
    /// The root command's ``GlobalOptions``, usually `parent.global` through `@ParentCommand`.
    var global: GlobalOptions { get }

    /// Does the command's work. Throw ``HTTPCore/APIError`` (or let the SDK's through) for
    /// failures and `ValidationError` for a bad command line; ``CLIRunner`` turns them into the
    /// message and exit code.
    func run(in context: CommandContext) async throws
}

extension ToolCommand {
    /// Refuses to run outside ``CLIRunner``, which supplies the ``CommandContext``.
    public mutating func run() async throws {
        throw ValidationError(
            "\(Self._commandName) must be started through CLIRunner.main(_:), which supplies its context."
        )
    }
}
