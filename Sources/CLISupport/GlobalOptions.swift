public import ArgumentParser

/// The options every command-line tool in this package accepts, in the same spelling.
///
/// The tool's root command declares them once with `@OptionGroup var global: GlobalOptions`;
/// leaf commands reach them through `@ParentCommand`. They may be given before or after the
/// subcommand (`monash --json parking` and `monash parking --json` are the same).
public struct GlobalOptions: ParsableArguments, Sendable {
    /// The longest `--timeout` accepted, so a typo cannot make a command hang for a day.
    public static let maximumTimeout: Double = 3600

    /// The prefix of the running tool's environment variables while its arguments are parsed
    /// and its help is drawn (``CLIRunner`` sets it), so the shared help can name the tool's own
    /// variable, e.g. `MONASH_BASE_URL`.
    @TaskLocal public static var environmentPrefix: String?

    /// The API's base URL; overrides the tool's `<PREFIX>_BASE_URL` environment variable.
    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "The API's base URL (or set \(GlobalOptions.environmentPrefix.map { $0 + "_BASE_URL" } ?? "its *_BASE_URL variable")).",
            valueName: "url"
        )
    )
    public var baseURL: String?

    /// Whether to start the in-process sandbox and talk to it instead of a real server.
    @Flag(help: "Start the built-in sandbox on a free loopback port and use it; needs no credentials.")
    public var sandbox = false

    /// Whether results are printed as JSON (and errors as one JSON object): `--format json`.
    @Flag(help: "Short for --format json.")
    public var json = false

    /// How results are printed; `nil` when not given.
    @Option(
        help: ArgumentHelp(
            "How to print results: table (the default), json, jsonl, csv or tsv. Under json and jsonl a failure is one JSON object on stderr.",
            valueName: "format"
        )
    )
    public var format: OutputFormat?

    /// The fields to print, in order.
    @Option(
        help: ArgumentHelp(
            "Print only these fields (in this order, but for JSON, whose keys are sorted): the JSON names, comma-separated, with dots for nested ones (creator.name).",
            valueName: "a,b,c"
        )
    )
    public var fields: FieldList?

    /// The format results are printed in: `--format`, or `json` for `--json`, else `table`.
    public var outputFormat: OutputFormat {
        json ? .json : format ?? .table
    }

    /// Whether each HTTP attempt is described on stderr.
    @Flag(name: [.customShort("v"), .long], help: "Print one redacted line per HTTP attempt on stderr.")
    public var verbose = false

    /// Whether to make each request only once.
    @Flag(name: .customLong("no-retry"), help: "Send each request once; do not retry failures.")
    public var noRetry = false

    /// Seconds each attempt may wait for the server.
    @Option(help: ArgumentHelp("Seconds each attempt may wait for the server.", valueName: "seconds"))
    public var timeout: Double = 30

    /// Creates the defaults; ArgumentParser fills in the parsed values.
    public init() {}

    /// Rejects values no command could use; the tool exits 64 with a usage message.
    public func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= Self.maximumTimeout else {
            throw ValidationError("--timeout must be more than 0 and at most \(Int(Self.maximumTimeout)) seconds.")
        }
        if json, let format, format != .json {
            throw ValidationError(
                "--json is short for --format json; it cannot be used with --format \(format.rawValue)."
            )
        }
        if sandbox, baseURL != nil {
            throw ValidationError("--sandbox and --base-url cannot be used together.")
        }
    }

    /// Text for the root command's `discussion` listing the tool's environment variables and the
    /// exit codes, so every tool's `--help` says the same thing in the same layout.
    ///
    /// - Parameters:
    ///   - environmentPrefix: The tool's prefix, e.g. `MONASH`; `<PREFIX>_BASE_URL` is listed first.
    ///   - variables: The tool's other variables (credentials, sandbox settings) and what they mean.
    public static func discussion(
        environmentPrefix: String,
        variables: [(name: String, meaning: String)] = []
    ) -> String {
        let all = [(name: "\(environmentPrefix)_BASE_URL", meaning: "the API's base URL (--base-url wins)")] + variables
        let width = all.map(\.name.count).max() ?? 0
        var lines = ["Environment:"]
        lines += all.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + "  " + $0.meaning }
        lines += [
            "",
            "Exit codes, with the code of the --json error object. Anything wrong on the command line or "
                + "in an argument's value is 64 (usage), found before any request is sent; 1 is a file or "
                + "setting read later, a failed write or a bug; 2 to 10 come from the API or the network; "
                + "a closed stdout (tool | head) ends quietly with 141.",
            "",
            ExitPolicy.helpText,
        ]
        return lines.joined(separator: "\n")
    }
}
