/// A failure a tool defines for itself, with its own stable code and exit code, for outcomes the
/// API's error codes do not name (a backup that is not built yet, an import the markbook moved
/// under).
///
/// ``CLIRunner`` reports it like any other failure: `error: message` and `hint: …` on stderr, or
/// the usual JSON object under `--json`, and exits with ``exitCode``. Document the code and exit
/// code in the command's help.
///
/// ```swift
/// throw CommandFailure(code: "backup_pending", message: "Not built yet.", hint: "Try tomorrow.", exitCode: 75)
/// ```
public struct CommandFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `code` of the `--json` error object, e.g. `backup_pending`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// What to do about it.
    public var hint: String?
    /// The process's exit code.
    public var exitCode: Int32
    /// Whether running the same command again later may succeed.
    public var retryable: Bool

    /// Creates a failure.
    public init(code: String, message: String, hint: String? = nil, exitCode: Int32, retryable: Bool = false) {
        self.code = code
        self.message = message
        self.hint = hint
        self.exitCode = exitCode
        self.retryable = retryable
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
