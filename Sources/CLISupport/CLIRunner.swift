import APISandbox
import ArgumentParser
import Foundation
import HTTPCore

/// Runs a ``CommandLineTool``: parses arguments, runs the command with a ``CommandContext``, and
/// turns the outcome into output and an exit code.
///
/// The executable's entry point is one line:
///
/// ```swift
/// @main
/// enum MonashMain {
///     static func main() async { await CLIRunner.main(Monash.self) }
/// }
/// ```
///
/// Tests run the same code path in-process with `CLIRunner.capture` from `CLISupportTesting`.
///
/// The exit code and error code of every outcome follow ``ExitPolicy``.
public enum CLIRunner {
    /// Runs the tool with the process's arguments, environment and streams, then exits.
    public static func main<Tool: CommandLineTool>(_ tool: Tool.Type) async -> Never {
        // A closed stdout must reach the output sink as EPIPE, not kill the process mid-cleanup.
        signal(SIGPIPE, SIG_IGN)
        // ArgumentParser reads COLUMNS (else the terminal) itself, and traps on a narrow one.
        if HelpText.terminalWidth() < HelpText.minimumWidth { setenv("COLUMNS", String(HelpText.minimumWidth), 1) }
        let code = await $catchesSignals.withValue(true) {
            await run(tool, arguments: Array(CommandLine.arguments.dropFirst()), environment: .process())
        }
        exit(code)
    }

    /// Whether commands run in this process's own `main`, where Ctrl-C and SIGTERM are the
    /// command's to answer; never in a test that runs a tool in-process.
    @TaskLocal private static var catchesSignals = false

    /// Runs the tool with `arguments` in `environment` and returns the exit code; everything is
    /// written to the environment's sinks.
    public static func run<Tool: CommandLineTool>(
        _ tool: Tool.Type,
        arguments: [String],
        environment: CLIEnvironment
    ) async -> Int32 {
        // Help drawn while parsing names the tool's own variables (see GlobalOptions).
        await GlobalOptions.$environmentPrefix.withValue(Tool.environmentPrefix) {
            await runCommand(tool, arguments: arguments, environment: environment)
        }
    }

    private static func runCommand<Tool: CommandLineTool>(
        _ tool: Tool.Type,
        arguments: [String],
        environment: CLIEnvironment
    ) async -> Int32 {
        let scrubber = SecretScrubber()
        for secret in secretArguments(arguments, names: Tool.secretOptionNames) {
            scrubber.register(secret)
        }
        for name in Tool.secretEnvironmentVariables {
            if let value = environment.variables[name] { scrubber.register(value) }
        }
        let output = WatchedOutput(base: environment.standardOutput)
        var environment = environment
        environment.standardOutput = output
        let stdout = ScrubbingSink(base: output, scrubber: scrubber)
        let stderr = ScrubbingSink(base: environment.standardError, scrubber: scrubber)
        // Parsing may fail before `--json` or `--format` is known, so look in the raw arguments.
        let wantsJSON = requestsJSONErrors(arguments)
        let parsing = FailureReporter<Tool>(
            json: wantsJSON,
            columns: helpWidth(environment),
            stdout: stdout,
            stderr: stderr
        )

        let command: any ParsableCommand
        do {
            command = try await Tool.asyncParseAsRoot(arguments)
        } catch {
            return parsing.finish(parsing.reportArgumentParserError(error), output: output.failure)
        }

        guard let toolCommand = command as? any ToolCommand else {
            // The root without a subcommand, `help`, and other commands ArgumentParser supplies.
            do {
                try await runPlain(command)
                return parsing.finish(ExitPolicy.success, output: output.failure)
            } catch {
                return parsing.finish(parsing.reportArgumentParserError(error), output: output.failure)
            }
        }

        let context = CommandContext(
            environment: environment,
            options: toolCommand.global,
            toolName: Tool.toolName,
            environmentPrefix: Tool.environmentPrefix,
            version: Tool.configuration.version,
            allowsInsecureHTTP: Tool.allowsInsecureHTTP,
            scrubber: scrubber,
            startSandbox: { environment in try await startSandbox(for: tool, environment: environment) }
        )
        let reporter = FailureReporter<Tool>(
            json: context.reportsErrorsAsJSON,
            columns: helpWidth(environment),
            stdout: stdout,
            stderr: stderr,
            command: type(of: toolCommand)
        )
        // The command runs in its own task so that losing stdout can stop it, as SIGPIPE would,
        // and Ctrl-C too: cancelled, it ends through its own cleanup and its outcome is reported.
        let signals = catchesSignals && !toolCommand.handlesTerminationSignals ? TerminationSignals() : nil
        let work = Task { try await toolCommand.run(in: context) }
        output.whenFailed { work.cancel() }
        let interrupted = Locked(false)
        let interruption = (signals?.arrivals).map { arrivals in
            Task {
                for await _ in arrivals {
                    TerminationSignals.restoreDefaultHandlers()
                    interrupted.withLock { $0 = true }
                    work.cancel()
                    return
                }
            }
        }
        let failure: (any Error)?
        do {
            try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
            failure = nil
        } catch {
            failure = error
        }
        interruption?.cancel()
        withExtendedLifetime(signals) {}
        // Stop the sandbox, shut the transport down and clear any progress line before the error
        // is printed.
        await context.finish()
        // Output that can no longer be delivered decides the outcome, whatever the command did next.
        guard output.failure == nil, let failure else {
            return reporter.finish(ExitPolicy.success, output: output.failure)
        }
        // Whatever a cancelled command threw on its way out, the signal is why it ended.
        guard !interrupted.withLock({ $0 }), !(failure is CancellationError) else {
            return reporter.cancelled(hint: context.sentWrites.cancellationHint)
        }
        return reporter.report(failure, afterWrites: context.sentWrites.applied)
    }

    // MARK: Helpers

    /// The width help and usage text wraps at: the environment's, else `COLUMNS`, else the
    /// terminal's, else 80.
    static func helpWidth(_ environment: CLIEnvironment) -> Int {
        if let columns = environment.columns { return columns }
        if let columns = environment.variables["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return environment.standardOutputColumns ?? 80
    }

    private static func runPlain(_ command: any ParsableCommand) async throws {
        if let asyncCommand = command as? any AsyncParsableCommand {
            try await runAsync(asyncCommand)
        } else {
            var command = command
            try command.run()
        }
    }

    private static func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
        var command = command
        try await command.run()
    }

    /// Whether the arguments ask for JSON output (`--json`, `--format json` or `jsonl`), looked
    /// for before parsing so a parse error can be reported in that form.
    static func requestsJSONErrors(_ arguments: [String]) -> Bool {
        let options = Array(arguments.prefix { $0 != "--" })
        for (index, argument) in options.enumerated() {
            if argument == "--json" { return true }
            let value: String?
            if argument == "--format" {
                value = index + 1 < options.count ? options[index + 1] : nil
            } else if argument.hasPrefix("--format=") {
                value = String(argument.dropFirst("--format=".count))
            } else {
                value = nil
            }
            if let value, OutputFormat(rawValue: value)?.reportsErrorsAsJSON == true { return true }
        }
        return false
    }

    /// The values that follow secret options, as `--token VALUE` or `--token=VALUE`.
    static func secretArguments(_ arguments: [String], names: [String]) -> [String] {
        var secrets: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            for name in names {
                if argument == name, index + 1 < arguments.endIndex {
                    secrets.append(arguments[index + 1])
                } else if argument.hasPrefix(name + "=") {
                    secrets.append(String(argument.dropFirst(name.count + 1)))
                }
            }
            index += 1
        }
        return secrets
    }

    private static func startSandbox<Tool: CommandLineTool>(
        for tool: Tool.Type,
        environment: CLIEnvironment
    ) async throws -> StartedSandbox {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            throw APIError.usage("--sandbox needs macOS 14, iOS 17 or tvOS 17 or later.")
        }
        let configuration: SandboxConfiguration
        do {
            configuration = try Tool.sandboxConfiguration(environment: environment)
        } catch let error as SandboxStateFileError {
            throw ConfigurationError(
                error.description,
                hint: "Fix the file or delete it to start from the sandbox's seed data, or point "
                    + "\(Tool.environmentPrefix)_SANDBOX_STATE at another file."
            )
        } catch let error as SandboxSettingError {
            throw ConfigurationError(error.description, hint: "Unset \(error.variable) or give it a value it takes.")
        }
        let sandbox = try await Sandbox.start(configuration: configuration)
        return StartedSandbox(
            baseURL: sandbox.baseURL.appending(path: Tool.sandboxBasePath),
            stop: { await sandbox.stop() }
        )
    }
}
