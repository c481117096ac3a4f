public import ArgumentParser

extension GlobalOptions {
    /// The names and help of the shared options, for a root command to declare them with:
    ///
    /// ```swift
    /// @Option(name: Help.baseURLName, help: Help.baseURL(environmentPrefix: environmentPrefix))
    /// var baseURL: String?
    /// @Flag(help: Help.sandbox) var sandbox = false
    /// @Flag(help: Help.json) var json = false
    /// @Option(help: Help.format) var format: OutputFormat?
    /// @Option(help: Help.fields) var fields: FieldList?
    /// @Flag(name: Help.verboseName, help: Help.verbose) var verbose = false
    /// @Flag(name: Help.noRetryName, help: Help.noRetry) var noRetry = false
    /// @Option(help: Help.timeout) var timeout = GlobalOptions.defaultTimeout
    /// ```
    ///
    /// The root declares them itself rather than nesting an option group: ArgumentParser's debug
    /// build checks a nested group again each time it builds the root's options, several times
    /// a parse (see docs/performance.md).
    public enum Help {
        /// `--base-url`.
        public static let baseURLName: NameSpecification = .customLong("base-url")

        /// `-v` and `--verbose`.
        public static let verboseName: NameSpecification = [.customShort("v"), .long]

        /// `--no-retry`.
        public static let noRetryName: NameSpecification = .customLong("no-retry")

        /// `--base-url`'s help, naming the tool's own variable, e.g. `MONASH_BASE_URL`.
        public static func baseURL(environmentPrefix: String) -> ArgumentHelp {
            ArgumentHelp("The API's base URL (or set \(environmentPrefix)_BASE_URL).", valueName: "url")
        }

        /// `--sandbox`'s help.
        public static let sandbox: ArgumentHelp =
            "Start the built-in sandbox on a free loopback port and use it; needs no credentials."

        /// `--json`'s help.
        public static let json: ArgumentHelp = "Short for --format json."

        /// `--format`'s help.
        public static let format = ArgumentHelp(
            "How to print results: table (the default), json, jsonl, csv or tsv. Under json and jsonl a failure is one JSON object on stderr.",
            valueName: "format"
        )

        /// `--fields`' help.
        public static let fields = ArgumentHelp(
            "Print only these fields, in this order: the JSON names, comma-separated, with dots for nested ones (creator.name).",
            valueName: "a,b,c"
        )

        /// `--verbose`'s help.
        public static let verbose: ArgumentHelp = "Print one redacted line per HTTP attempt on stderr."

        /// `--no-retry`'s help.
        public static let noRetry: ArgumentHelp = "Send each request once; do not retry failures."

        /// `--timeout`'s help.
        public static let timeout = ArgumentHelp("Seconds each attempt may wait for the server.", valueName: "seconds")
    }
}
