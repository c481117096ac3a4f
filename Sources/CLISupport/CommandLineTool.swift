public import APISandbox
public import ArgumentParser

/// The root command of one of the package's command-line tools (`monash`, `basecamp`, `markbook`).
///
/// The root declares the shared ``GlobalOptions`` and says how the tool finds its API: the prefix
/// of its environment variables and the sandbox modules that play the API for `--sandbox`. Its
/// subcommands conform to ``ToolCommand``. Start it with ``CLIRunner/main(_:)``.
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
///     @OptionGroup var global: GlobalOptions
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

    /// The shared options, declared as `@OptionGroup var global: GlobalOptions`.
    var global: GlobalOptions { get }
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

    /// Whether this run catches Ctrl-C (SIGINT) and SIGTERM itself, as a command that runs until
    /// stopped does (``Interruption``). Otherwise ``CLIRunner/main(_:)`` catches them and cancels
    /// the command, which ends through its own cleanup and exits `cancelled` (130). `false` by
    /// default.
    var handlesTerminationSignals: Bool { get }
}

extension ToolCommand {
    /// The runner's handling: a signal cancels the command.
    public var handlesTerminationSignals: Bool { false }

    /// Refuses to run outside ``CLIRunner``, which supplies the ``CommandContext``.
    public mutating func run() async throws {
        throw ValidationError(
            "\(Self._commandName) must be started through CLIRunner.main(_:), which supplies its context."
        )
    }
}
