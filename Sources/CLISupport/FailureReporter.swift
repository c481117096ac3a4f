import ArgumentParser
import Foundation
import HTTPCore

/// Prints a failed command's error (human text or one `--json` object on stderr) and returns its
/// exit code, as ``ExitPolicy`` says.
struct FailureReporter<Tool: CommandLineTool> {
    /// Whether the failure is printed as one JSON object.
    let json: Bool
    /// The width help text wraps at.
    let columns: Int?
    let stdout: ScrubbingSink
    let stderr: ScrubbingSink
    /// The subcommand that ran, once parsing found it: its usage line follows a usage error.
    var command: (any ParsableCommand.Type)?

    init(
        json: Bool,
        columns: Int?,
        stdout: ScrubbingSink,
        stderr: ScrubbingSink,
        command: (any ParsableCommand.Type)? = nil
    ) {
        self.json = json
        self.columns = columns
        self.stdout = stdout
        self.stderr = stderr
        self.command = command
    }

    /// The exit code once stdout's fate is known: a closed pipe ends quietly with
    /// ``ExitPolicy/closedPipe``; any other write failure is reported and exits
    /// ``ExitPolicy/outputFailed``.
    func finish(_ code: Int32, output: OutputFailure?) -> Int32 {
        guard let output else { return code }
        if output.isClosedPipe { return ExitPolicy.closedPipe }
        return write(
            ErrorReport(
                code: "output_failed",
                message: "Cannot write the results to standard output: \(output).",
                exitCode: ExitPolicy.outputFailed
            )
        )
    }

    /// Reports a failure of the command that ran, after the server answered the writes in
    /// `afterWrites`.
    ///
    /// A usage error found once a write was applied, such as a `--fields` name its answer lacks,
    /// is `output_failed` (exit 1), not `usage` (exit 64): a script that reads 64 as "nothing was
    /// sent" and runs the command again, mended, would repeat the write.
    func report(_ failure: any Error, afterWrites: [String] = []) -> Int32 {
        if !afterWrites.isEmpty, let message = Self.usageMessage(of: failure) {
            return write(
                ErrorReport(
                    code: "output_failed",
                    message: "\(message) The server already applied \(afterWrites.joined(separator: ", ")).",
                    hint: "Do not run the command again to mend the output: it would repeat the write.",
                    exitCode: ExitPolicy.outputFailed
                )
            )
        }
        switch failure {
        case let error as APIError where error.code == .usage:
            return usage(error.message, hint: error.hint)
        case let error as APIError:
            return write(ErrorReport(error))
        case let error as any APIErrorConvertible:
            return report(error.apiError, afterWrites: afterWrites)
        case is CancellationError:
            return cancelled(hint: nil)
        case let error as ConfigurationError:
            return write(
                ErrorReport(
                    code: "configuration",
                    message: error.message,
                    hint: error.hint,
                    exitCode: ExitPolicy.configuration
                )
            )
        case let error as CommandFailure:
            return write(
                ErrorReport(
                    code: error.code,
                    message: error.message,
                    hint: error.hint,
                    retryable: error.retryable,
                    exitCode: error.exitCode
                )
            )
        case let error as FileWriteError:
            return report(error)
        case let error as ValidationError:
            return usage(error.message, hint: nil)
        case let error where error is CleanExit || error is ExitCode:
            return reportArgumentParserError(error)
        default:
            return write(ErrorReport(code: "internal", message: "\(failure)", exitCode: ExitPolicy.internalFailure))
        }
    }

    /// The message of a usage error (exit 64), or `nil` for any other failure.
    private static func usageMessage(of failure: any Error) -> String? {
        switch failure {
        case let error as APIError where error.code == .usage: return error.message
        case let error as ValidationError: return error.message
        case let error as FileWriteError where error.reason == .exists: return error.description
        default: return nil
        }
    }

    /// Reports a file or stream a command could not write: an existing file is a usage error
    /// (the command line chose it), a closed stdout ends quietly, anything else is
    /// `output_failed`.
    private func report(_ error: FileWriteError) -> Int32 {
        if error.isClosedStandardOutput { return ExitPolicy.closedPipe }
        if error.reason == .exists {
            return usage(error.description, hint: "Pass --force to replace it, or choose another path with --output.")
        }
        // The same words as for any other stdout that could not be written.
        let message =
            error.isStandardOutput
            ? "Cannot write the results to standard output: \(error.explanation)." : error.description
        return write(ErrorReport(code: "output_failed", message: message, exitCode: ExitPolicy.outputFailed))
    }

    /// Reports an error ArgumentParser knows: a parse or validation error, a help or version
    /// request, a completion script, `CleanExit` or `ExitCode`.
    func reportArgumentParserError(_ error: any Error) -> Int32 {
        let code = Tool.exitCode(for: error).rawValue
        // Unwrapped from ArgumentParser, then wrapped here so example lines stay whole.
        let text = HelpText.wrap(
            Tool.fullMessage(for: error, columns: HelpText.unwrappedWidth),
            width: columns ?? 80,
            commands: [Tool.toolName]
        )
        if code == ExitPolicy.success {
            if !text.isEmpty { stdout.write(text + "\n") }
            return ExitPolicy.success
        }
        if json {
            let message = Tool.message(for: error)
            let helpCommand = Self.helpCommand(in: text) ?? Tool.toolName
            return write(
                ErrorReport(
                    code: code == ExitPolicy.usage ? "usage" : "internal",
                    message: message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message,
                    hint: "Run '\(helpCommand) --help' for usage.",
                    exitCode: code
                )
            )
        }
        if !text.isEmpty { stderr.write(text + "\n") }
        return code
    }

    /// Reports a cancelled command (Ctrl-C, SIGTERM), with `hint` naming any write it cut short.
    func cancelled(hint: String?) -> Int32 {
        write(ErrorReport(code: "cancelled", message: "Cancelled.", hint: hint, exitCode: ExitPolicy.cancelled))
    }

    /// A usage error found after parsing: ArgumentParser's layout, with the usage line of the
    /// subcommand that ran rather than the tool's.
    private func usage(_ message: String, hint: String?) -> Int32 {
        let path = commandPath.joined(separator: " ")
        if json {
            return write(
                ErrorReport(
                    code: "usage",
                    message: message,
                    hint: hint ?? "Run '\(path) --help' for usage.",
                    exitCode: ExitPolicy.usage
                )
            )
        }
        var lines = ["Error: \(message)"]
        if let hint { lines.append("Hint: \(hint)") }
        let usage = command.map { Tool.usageString(for: $0) } ?? Tool.usageString()
        lines.append("Usage: \(usage)")
        lines.append("  See '\(path) --help' for more information.")
        stderr.write(lines.joined(separator: "\n") + "\n")
        return ExitPolicy.usage
    }

    /// The names from the tool to the subcommand that ran, e.g. `markbook result set`.
    private var commandPath: [String] {
        guard let command else { return [Tool.toolName] }
        return Self.path(to: command, from: Tool.self).map { [Tool.toolName] + $0 } ?? [Tool.toolName]
    }

    private static func path(to target: any ParsableCommand.Type, from node: any ParsableCommand.Type) -> [String]? {
        if ObjectIdentifier(node) == ObjectIdentifier(target) { return [] }
        for child in node.configuration.subcommands {
            if let rest = path(to: target, from: child) { return [child._commandName] + rest }
        }
        return nil
    }

    /// The command in ArgumentParser's "See 'markbook show --help'" line.
    private static func helpCommand(in text: String) -> String? {
        guard let start = text.range(of: "See '"),
            let end = text.range(of: " --help'", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    private func write(_ report: ErrorReport) -> Int32 {
        if json {
            // Scrubbed as values, not as escaped text, in which a secret holding a quote or a
            // backslash would no longer match.
            let line = (try? CommandContext.jsonValue(report)).map { value in
                String(decoding: stderr.scrubber.scrub(value, inResults: false).encoded(), as: UTF8.self)
            }
            stderr.writeScrubbedJSON((line ?? #"{"code":"internal"}"#) + "\n")
        } else {
            stderr.write(report.humanText + "\n")
        }
        return report.exitCode
    }
}
