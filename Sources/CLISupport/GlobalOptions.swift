import ArgumentParser

/// The options every command-line tool in this package accepts, in the same spelling, as the
/// one value a command reads them from.
///
/// Each tool's root ``CommandLineTool`` declares them as its own options, one line each with the
/// names and help in ``Help``, and ``CommandLineTool/global`` gathers them here; leaf commands
/// reach them through `@ParentCommand`. They may be given before or after the subcommand
/// (`monash --json parking` and `monash parking --json` are the same).
public struct GlobalOptions: Sendable, Equatable {
    /// The longest `--timeout` accepted, so a typo cannot make a command hang for a day.
    public static let maximumTimeout: Double = 3600

    /// The `--timeout` when none is given.
    public static let defaultTimeout: Double = 30

    /// The API's base URL (`--base-url`); overrides the tool's `<PREFIX>_BASE_URL` variable.
    public var baseURL: String?

    /// Whether to start the in-process sandbox and talk to it instead of a real server (`--sandbox`).
    public var sandbox = false

    /// Whether results are printed as JSON, and errors as one JSON object (`--json`).
    public var json = false

    /// How results are printed (`--format`); `nil` when not given.
    public var format: OutputFormat?

    /// The fields to print, in order (`--fields`).
    public var fields: FieldList?

    /// Whether each HTTP attempt is described on stderr (`-v`, `--verbose`).
    public var verbose = false

    /// Whether to make each request only once (`--no-retry`).
    public var noRetry = false

    /// Seconds each attempt may wait for the server (`--timeout`).
    public var timeout = GlobalOptions.defaultTimeout

    /// The format results are printed in: `--format`, or `json` for `--json`, else `table`.
    public var outputFormat: OutputFormat {
        json ? .json : format ?? .table
    }

    /// Rejects values no command could use; the tool exits 64 with a usage message.
    ///
    /// - Throws: `ValidationError` naming the option.
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
