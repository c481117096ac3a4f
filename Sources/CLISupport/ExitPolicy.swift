import HTTPCore

/// The one rule every tool follows to turn a command's outcome into an exit code and an error
/// code: the table printed by `--help`, documented in README, and applied by ``CLIRunner``.
///
/// - Anything wrong on the command line or in an argument's value (an unknown option, `show 0`,
///   an unreadable `--body @file`, an http base URL for a remote host, a missing `--account`) is
///   code `usage`, exit 64 (`EX_USAGE`), found before any request is sent. That is also
///   ``HTTPCore/APIError/Code/usage``'s exit code, so an SDK's own input check reads the same.
/// - A problem found later in a file or setting the tool reads (a credentials or state file that
///   cannot be read) is code `configuration`, exit 1: throw ``ConfigurationError``.
/// - A failure the API or the network caused exits with ``HTTPCore/APIError/Code/exitCode``,
///   2 to 10.
/// - A closed stdout (`tool | head -n 3` after `head` exits) ends the tool quietly with 141, what
///   a shell reports for any other program in the pipeline that `SIGPIPE` ended, so
///   `set -o pipefail` scripts treat the tools like `cat` or `grep`. Any other write failure
///   (`> /dev/full`, an `--output` file in a missing folder or on a full disk) is one line on
///   stderr, code `output_failed`, exit 1, naming the path and the reason.
/// - Ctrl-C is `cancelled`, 130; a bug is `internal`, 1.
public enum ExitPolicy {
    /// One row of the table: an error code, the exit code it gives, and when it happens.
    public struct Rule: Sendable, Hashable {
        /// The `code` of the `--json` error object; empty for success.
        public var code: String
        /// The process's exit code.
        public var exitCode: Int32
        /// When it happens, in a few words.
        public var meaning: String

        /// Creates a rule.
        public init(code: String, exitCode: Int32, meaning: String) {
            self.code = code
            self.exitCode = exitCode
            self.meaning = meaning
        }
    }

    /// A command that did its work, and `--help`, `--version` and completion scripts.
    public static let success: Int32 = 0
    /// A bad command line or argument value (`EX_USAGE`, as ArgumentParser's own errors).
    public static let usage: Int32 = APIError.Code.usage.exitCode
    /// A file or setting the tool reads after parsing cannot be used.
    public static let configuration: Int32 = 1
    /// Results could not be written to stdout (other than a closed pipe) or to an output file,
    /// e.g. a full disk.
    public static let outputFailed: Int32 = 1
    /// An unexpected error: a bug.
    public static let internalFailure: Int32 = 1
    /// The command was cancelled (128 + SIGINT, as shells report Ctrl-C).
    public static let cancelled: Int32 = 130
    /// Stdout's reader went away (128 + SIGPIPE, as shells report a process `SIGPIPE` ended).
    public static let closedPipe: Int32 = 141

    /// Every outcome, in exit-code order: the table `--help` and README show.
    public static let rules: [Rule] =
        [Rule(code: "", exitCode: success, meaning: "success")]
        + [
            Rule(code: "configuration", exitCode: configuration, meaning: "a file or setting read later is unusable"),
            Rule(code: "output_failed", exitCode: outputFailed, meaning: "results could not be written"),
            Rule(code: "internal", exitCode: internalFailure, meaning: "an unexpected error"),
        ]
        + APIError.Code.allCases.filter { $0 != .usage }.map { code in
            Rule(code: code.rawValue, exitCode: code.exitCode, meaning: meaning(of: code))
        }
        + [
            Rule(code: "usage", exitCode: usage, meaning: "bad command line or argument value"),
            Rule(code: "cancelled", exitCode: cancelled, meaning: "cancelled (Ctrl-C)"),
            Rule(code: "closed_pipe", exitCode: closedPipe, meaning: "stdout closed by its reader; nothing printed"),
        ]

    /// The exit codes as `--help` lists them, two columns wide.
    public static var helpText: String {
        let entries = rules.map { "\(String($0.exitCode).leftPadded(to: 3)) \($0.code.isEmpty ? "success" : $0.code)" }
        let half = (entries.count + 1) / 2
        let width = entries.prefix(half).map(\.count).max() ?? 0
        return (0..<half).map { row in
            let left = entries[row]
            guard row + half < entries.count else { return "  " + left }
            return "  " + left + String(repeating: " ", count: width - left.count + 3) + entries[row + half]
        }
        .joined(separator: "\n")
    }

    private static func meaning(of code: APIError.Code) -> String {
        switch code {
        case .usage: return "bad command line or argument value"
        case .notFound: return "not found (404)"
        case .authRequired: return "credentials missing or rejected (401)"
        case .forbidden: return "forbidden (403)"
        case .rateLimit: return "rate limited (429)"
        case .network: return "connection failed, timed out or was reset"
        case .apiError: return "server error or unexpected answer"
        case .ambiguous: return "a write may or may not have been applied"
        case .validation: return "the API refused the input (400, 422)"
        case .limitExceeded: return "a size limit was exceeded (507)"
        }
    }
}

/// A problem with a file or setting the tool reads after parsing its arguments, such as a
/// credentials or state file that cannot be read: code `configuration`, exit 1.
///
/// A bad argument value is not one of these: throw `ValidationError` (exit 64) for that.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file or setting (never its secret content).
    public var message: String
    /// What to do about it.
    public var hint: String?

    /// Creates an error.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The message.
    public var description: String { message }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
