import ArgumentParser
public import Foundation
public import HTTPCore

/// What a ``ToolCommand`` works with: resolved options, output helpers, credentials and the API
/// connection.
///
/// Write results with ``print(_:)`` / ``printJSON(_:)`` (stdout) and notes with ``note(_:)``
/// (stderr). Everything goes through the environment's sinks, with known secrets scrubbed.
public final class CommandContext: Sendable {
    /// The environment the command runs in.
    public let environment: CLIEnvironment
    /// The tool's name, e.g. `monash`.
    public let toolName: String
    /// The tool's environment-variable prefix, e.g. `MONASH`.
    public let environmentPrefix: String
    /// The format results are printed in (`--format`, `--json`); see ``printList(_:human:)``.
    public let outputFormat: OutputFormat
    /// The fields `--fields` asks for, or `nil` for the format's usual ones.
    public let fields: FieldList?
    /// Whether results are printed for scripts rather than as a table: `--json`, `--format`
    /// `json`, `jsonl`, `csv` or `tsv`, or `--fields`. Such a command prints its result with
    /// ``printJSON(_:)`` (or ``printList(_:human:)`` / ``printRecord(_:human:)``, which decide
    /// for it).
    public var outputsJSON: Bool { outputFormat != .table || fields != nil }
    /// Whether a failure is reported as one JSON object on stderr (`--format json` or `jsonl`).
    public var reportsErrorsAsJSON: Bool { outputFormat.reportsErrorsAsJSON }
    /// Whether `--verbose` was given.
    public let isVerbose: Bool
    /// Whether `--sandbox` was given.
    public let usesSandbox: Bool
    /// Draws progress on stderr when it is a terminal (and `--verbose` is off); otherwise silent.
    public let progress: ProgressReporter

    private let baseURLOption: String?
    private let allowsInsecureHTTP: Bool
    private let retries: Bool
    private let timeout: Duration
    private let userAgent: String
    let scrubber: SecretScrubber
    private let stdout: ScrubbingSink
    private let stderr: any OutputSink
    private let startSandbox: @Sendable (CLIEnvironment) async throws -> StartedSandbox
    private let sandbox = Locked<Task<StartedSandbox, any Error>?>(nil)
    /// Writes the command sent, for the reports of a cancellation or of an error after a write.
    let sentWrites = SentWrites()
    private let ownTransport = Locked<ToolTransport?>(nil)

    init(
        environment: CLIEnvironment,
        options: GlobalOptions,
        toolName: String,
        environmentPrefix: String,
        version: String,
        allowsInsecureHTTP: Bool = false,
        scrubber: SecretScrubber,
        startSandbox: @escaping @Sendable (CLIEnvironment) async throws -> StartedSandbox
    ) {
        self.environment = environment
        self.toolName = toolName
        self.environmentPrefix = environmentPrefix
        self.outputFormat = options.outputFormat
        self.fields = options.fields
        self.isVerbose = options.verbose
        self.usesSandbox = options.sandbox
        self.baseURLOption = options.baseURL
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.retries = !options.noRetry
        self.timeout = .milliseconds(Int64((options.timeout * 1000).rounded()))
        self.userAgent = "\(toolName)/\(version.isEmpty ? "dev" : version) (swift-api-sdks)"
        self.scrubber = scrubber
        self.stdout = ScrubbingSink(base: environment.standardOutput, scrubber: scrubber, carriesResults: true)
        self.stderr = ScrubbingSink(base: environment.standardError, scrubber: scrubber)
        self.progress = ProgressReporter(
            sink: ScrubbingSink(base: environment.standardError, scrubber: scrubber, keepsControls: true),
            enabled: environment.standardErrorIsTerminal && !options.verbose
        )
        self.startSandbox = startSandbox
    }

    // MARK: Output

    /// Writes a line of results to stdout, after erasing any progress line (stdout and stderr are
    /// often the same terminal).
    public func print(_ line: String = "") {
        progress.clear()
        stdout.write(line + "\n")
    }

    /// Writes `secret` and a newline to stdout as it is, past the scrubber that keeps every
    /// registered secret out of everything else printed: only for a command whose result is the
    /// secret itself (`basecamp auth token`), for a script to capture.
    public func printSecret(_ secret: String) {
        progress.clear()
        environment.standardOutput.write(secret + "\n")
    }

    /// Writes a line to stderr: a note for people that is not part of the results.
    public func note(_ line: String) {
        progress.clear()
        stderr.write(line + "\n")
    }

    /// Writes a command's result for scripts, in the format `--format` asks for: for `json` (and
    /// for `table` without `--fields`, as for a command whose output is always JSON)
    /// pretty-printed with sorted keys (a list as an array, a single thing as an object), for
    /// `jsonl` one compact line per item, for `csv` and `tsv` a header and a row per item, each
    /// with only the `--fields` given. See ``printList(_:human:)`` for the details.
    ///
    /// - Throws: `ValidationError` (exit 64) for an unknown `--fields` name; the encoder's error,
    ///   which the runner reports as an unexpected failure.
    public func printJSON(_ value: some Encodable) throws {
        guard outputFormat != .table || fields != nil else {
            try writeJSON(value)
            return
        }
        let data = try Self.jsonValue(value)
        if case .array(let items) = data {
            try printRows(items, document: nil, human: {})
        } else {
            try printRecord(data, human: {})
        }
    }

    /// Writes `value` as pretty-printed JSON with sorted keys, whatever the format.
    func writeJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(scrubber.scrub(try Self.jsonValue(value)))
        writeJSONText(String(decoding: data, as: UTF8.self))
    }

    /// Writes `record` to stdout as one compact line of JSON (`jsonl`), with known secrets
    /// replaced inside its values so that the line stays valid JSON.
    public func printJSONLine(_ record: JSONValue) {
        writeJSONText(String(decoding: scrubber.scrub(record).encoded(), as: UTF8.self))
    }

    private func writeJSONText(_ text: String) {
        progress.clear()
        stdout.writeScrubbedJSON(text + "\n")
    }

    /// Writes `table` to stdout, one line per row, fitted to ``outputWidth``.
    public func print(_ table: TextTable) {
        // Cells are scrubbed before they are fitted: a cut could leave a secret's first part.
        var table = table
        table.rows = table.rows.map { $0.map { scrubber.scrub($0, inResults: true) } }
        let rendered = table.render(width: outputWidth)
        if !rendered.isEmpty { print(rendered) }
    }

    /// The width tables are fitted to: `COLUMNS` when set, else the terminal's width when stdout
    /// is a terminal; `nil` (no limit) when stdout is a file or pipe.
    public var outputWidth: Int? {
        if let columns = variable("COLUMNS").flatMap(Int.init), columns > 0 { return columns }
        return environment.standardOutputColumns
    }

    /// The current time from the environment's clock.
    public var now: Date { environment.clock.now() }

    /// Formats dates in the user's local time zone.
    public var dates: DateText { DateText(timeZone: environment.timeZone) }

    // MARK: Environment and credentials

    /// The value of the environment variable `name`, or `nil` when it is unset or empty.
    public func variable(_ name: String) -> String? {
        guard let value = environment.variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// The tool's environment variable for `suffix`: `variable("MONASH_" + suffix)`.
    public func toolVariable(_ suffix: String) -> String? {
        variable("\(environmentPrefix)_\(suffix)")
    }

    /// A credential from its flag, else its environment variable, else (under `--sandbox`) the
    /// sandbox's stand-in. The value is registered as a secret, so nothing the tool prints can
    /// show it.
    ///
    /// - Parameters:
    ///   - flagValue: The parsed option, e.g. `token`.
    ///   - option: Its spelling for messages, e.g. `--token`.
    ///   - variable: Its environment variable, e.g. `BASECAMP_TOKEN`.
    ///   - sandboxValue: What to use under `--sandbox` when neither is given.
    /// - Throws: ``HTTPCore/APIError/authRequired(_:)`` (exit 3) naming the flag and variable, when
    ///   no value is found.
    public func credential(
        _ flagValue: String?,
        option: String,
        variable name: String,
        sandboxValue: String? = nil
    ) throws -> String {
        let value = flagValue.flatMap { $0.isEmpty ? nil : $0 } ?? variable(name) ?? (usesSandbox ? sandboxValue : nil)
        guard let value else {
            throw APIError.authRequired(
                APIError.Details(
                    message: "No value for \(option).",
                    hint: "Set \(name) (preferred: flags show up in the process list) or pass \(option)."
                )
            )
        }
        registerSecret(value)
        return value
    }

    /// Adds a value to scrub from everything printed from now on, e.g. a session token the tool
    /// obtained itself.
    public func registerSecret(_ value: String) {
        scrubber.register(value)
    }

    // MARK: Connection

    /// The client configuration and transport for the tool's API, honouring `--base-url`,
    /// `<PREFIX>_BASE_URL`, `--sandbox`, `--timeout`, `--no-retry` and `--verbose`.
    ///
    /// Under `--sandbox` the first call starts the sandbox on a free loopback port; it stops when
    /// the command ends. Adjust the returned configuration (auth, headers) before building the SDK
    /// client.
    ///
    /// - Throws: `ValidationError` (exit 64) when there is no usable base URL.
    public func connection() async throws -> APIConnection {
        try await connection(defaultBaseURL: nil)
    }

    /// ``connection()`` for an API with a public address of its own, used when neither
    /// `--base-url` nor `<PREFIX>_BASE_URL` is given.
    ///
    /// - Parameter defaultBaseURL: The API's public address; `nil` makes a base URL required.
    /// - Throws: `ValidationError` (exit 64) when there is no usable base URL.
    public func connection(defaultBaseURL: URL?) async throws -> APIConnection {
        let baseURL: URL
        if usesSandbox {
            let task = sandbox.withLock { task -> Task<StartedSandbox, any Error> in
                if let task { return task }
                let environment = environment
                let startSandbox = startSandbox
                let log: (any OutputSink)? = isVerbose ? stderr : nil
                let started = Task {
                    let sandbox = try await startSandbox(environment)
                    log?.write(
                        "[sandbox] serving \(sandbox.baseURL.absoluteString) on loopback until the command ends\n"
                    )
                    return sandbox
                }
                task = started
                return started
            }
            let started = try await task.value
            baseURL = started.baseURL
        } else {
            baseURL = try resolvedBaseURL(default: defaultBaseURL)
        }
        var configuration = ClientConfiguration(baseURL: baseURL)
        configuration.allowsInsecureHTTP = allowsInsecureHTTP
        configuration.timeout = timeout
        configuration.retry = retries ? .default : .none
        configuration.timeSource = environment.clock
        configuration.userAgent = userAgent
        var hooks: [any Hooks] = [sentWrites]
        if isVerbose {
            hooks.append(VerboseLog.hooks(writingTo: stderr))
        }
        if progress.isEnabled {
            hooks.append(ProgressHooks(reporter: progress))
        }
        configuration.hooks = hooks.count == 1 ? hooks[0] : ChainHooks(hooks)
        return APIConnection(
            configuration: configuration,
            transport: environment.transport ?? defaultTransport(),
            isSandbox: usesSandbox
        )
    }

    /// The transport made for this command on first use; ``finish()`` shuts it down.
    private func defaultTransport() -> any HTTPTransport {
        ownTransport.withLock { own in
            if let own { return own.transport }
            let made = ToolTransport.make()
            own = made
            return made.transport
        }
    }

    private func resolvedBaseURL(default defaultBaseURL: URL?) throws -> URL {
        let variableName = "\(environmentPrefix)_BASE_URL"
        guard let text = baseURLOption ?? variable(variableName) ?? defaultBaseURL?.absoluteString else {
            throw ValidationError(
                "No base URL: pass --base-url URL, set \(variableName), or use --sandbox to try the built-in sandbox."
            )
        }
        let source = baseURLOption == nil ? variableName : "--base-url"
        let shown = Redactor().redact(urlString: text)
        guard let url = URL(string: text) else {
            throw ValidationError("\(source) \"\(shown)\" is not a URL.")
        }
        do {
            return try URLPolicy.validatedBaseURL(url, allowingInsecureHTTP: allowsInsecureHTTP)
        } catch let error as APIError {
            throw ValidationError("\(source): \(error.message)")
        }
    }

    /// Shuts down the transport the command used, stops the sandbox, if one was started, and
    /// clears any progress line.
    func finish() async {
        progress.clear()
        if scrubber.hasRedactedResults {
            stderr.write(
                "note: \(Redactor.placeholder) in the results stands for text equal to a secret this command "
                    + "was given (a password, token or key).\n"
            )
        }
        if let transport = ownTransport.withLock({ $0 }) {
            await transport.shutdown()
        }
        let task = sandbox.withLock { $0 }
        if let started = try? await task?.value {
            await started.stop()
        }
    }
}

/// How a command reaches its API: the configuration to build the SDK client from, and the
/// transport to send through.
public struct APIConnection: Sendable {
    /// Base URL, timeout, retry policy, clock, user agent and hooks, as the global options say.
    public var configuration: ClientConfiguration
    /// The transport: AsyncHTTPClient on Linux and URLSession on Apple platforms, shut down when
    /// the command ends, or the one a test put in the environment.
    public var transport: any HTTPTransport
    /// Whether the base URL is the in-process sandbox.
    public var isSandbox: Bool
}

/// A sandbox the runner started for `--sandbox`.
struct StartedSandbox: Sendable {
    var baseURL: URL
    var stop: @Sendable () async -> Void
}
