import APISandbox
import Foundation

/// How a ``MarkbookSandboxModule`` plays backups and whether it makes result writes fail: the
/// switches tests and `--sandbox` users need to reach paths the real API only takes on some days.
///
/// Pass them to the module's initializer, change them while it runs
/// (``MarkbookSandboxModule/setOptions(_:)``), or read them from the environment with
/// ``init(environment:)``:
///
/// | variable | values | default |
/// |---|---|---|
/// | `MARKBOOK_SANDBOX_BACKUP` | `scheduled`, `ready`, `pending`, `none` | `scheduled` |
/// | `MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER` | N: every `putstudentresult` after the first N successful ones fails | never |
/// | `MARKBOOK_SANDBOX_FAIL_RESULT_CELLS` | `STUDENTKEY:TASKKEY,…`: writes to these cells fail | none |
/// | `MARKBOOK_SANDBOX_FAIL_RESULTS_WITH` | `error` or `error:REASON` (an `ERROR:` answer), `http:CODE` (an HTTP error), `lost:CODE` (written, then an HTTP error) | `error:service unavailable` |
@available(macOS 14, iOS 17, tvOS 17, *)
public struct MarkbookSandboxOptions: Sendable, Hashable {
    /// How `getbackupurl` answers.
    public enum BackupMode: String, Sendable, Hashable, CaseIterable {
        /// As the real API: `ERROR:no backup` until `schedulebackup`, `ERROR:pending` until 1 AM
        /// the next day, then `OKAY` and a URL for an hour after it is first returned.
        case scheduled
        /// A backup of every markbook is ready from the start (and again after a reset); the URL
        /// works for an hour after it is first returned, as a real one does.
        case ready
        /// Always `ERROR:pending`.
        case pending
        /// Always `ERROR:no backup`.
        case none
    }

    /// When and how `putstudentresult` fails, so a test can interrupt an import and run it again.
    public struct ResultWriteFaults: Sendable, Hashable {
        /// How a faulted write fails.
        public enum Failure: Sendable, Hashable {
            /// Nothing is written; the answer is `ERROR:<reason>` (HTTP 200, `api_error` in the
            /// SDK, not retried).
            case status(String)
            /// Nothing is written; the answer is this HTTP status (a 5xx is retried by the SDK).
            case httpStatus(Int)
            /// The result is written, then the answer is this HTTP status: a lost answer.
            case lostAnswer(httpStatus: Int)
        }

        /// Every write after this many successful ones fails; `nil` for never.
        public var failAfterWrites: Int?
        /// Writes to these cells fail.
        public var cells: Set<MarkbookSandboxModule.ResultCell>
        /// How they fail.
        public var failure: Failure

        /// Creates a fault plan; the default fails nothing.
        public init(
            failAfterWrites: Int? = nil,
            cells: Set<MarkbookSandboxModule.ResultCell> = [],
            failure: Failure = .status("service unavailable")
        ) {
            self.failAfterWrites = failAfterWrites
            self.cells = cells
            self.failure = failure
        }

        /// No faults.
        public static let none = ResultWriteFaults()
    }

    /// The environment variable choosing ``backup``.
    public static let backupVariable = "MARKBOOK_SANDBOX_BACKUP"
    /// The environment variable setting ``ResultWriteFaults/failAfterWrites``.
    public static let failAfterVariable = "MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER"
    /// The environment variable setting ``ResultWriteFaults/cells``.
    public static let failCellsVariable = "MARKBOOK_SANDBOX_FAIL_RESULT_CELLS"
    /// The environment variable setting ``ResultWriteFaults/failure``.
    public static let failWithVariable = "MARKBOOK_SANDBOX_FAIL_RESULTS_WITH"

    /// How `getbackupurl` answers.
    public var backup: BackupMode
    /// When result writes fail.
    public var resultWriteFaults: ResultWriteFaults
    /// A hold (``APISandbox/SandboxState/release(_:)``) the second half of a backup's zip waits
    /// on, so a test can act while a download is under way; `nil`, the default, sends it at once.
    public var backupHold: String?

    /// Creates options; the defaults play the real API with no faults.
    public init(
        backup: BackupMode = .scheduled,
        resultWriteFaults: ResultWriteFaults = .none,
        backupHold: String? = nil
    ) {
        self.backup = backup
        self.resultWriteFaults = resultWriteFaults
        self.backupHold = backupHold
    }

    /// Reads the options from environment variables (see the table above); unset ones keep
    /// their defaults.
    ///
    /// - Throws: ``APISandbox/SandboxSettingError`` naming the variable when a value cannot be read,
    ///   so a typo is an error rather than a sandbox quietly playing something else.
    public init(environment: [String: String]) throws {
        self.init()
        if let text = Self.value(Self.backupVariable, environment) {
            guard let mode = BackupMode(rawValue: text.lowercased()) else {
                throw SandboxSettingError(
                    variable: Self.backupVariable,
                    value: text,
                    expected: "one of " + BackupMode.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
            backup = mode
        }
        if Self.value(Self.failAfterVariable, environment) != nil {
            resultWriteFaults.failAfterWrites = try SandboxSettings.integer(
                Self.failAfterVariable,
                in: environment,
                default: 0,
                minimum: 0
            )
        }
        if let text = Self.value(Self.failCellsVariable, environment) {
            resultWriteFaults.cells = try Set(
                text.split(separator: ",").map { pair in
                    let parts = pair.split(separator: ":").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                    guard parts.count == 2, let student = parts[0], let task = parts[1] else {
                        throw SandboxSettingError(
                            variable: Self.failCellsVariable,
                            value: text,
                            expected: "STUDENTKEY:TASKKEY pairs separated by commas (e.g. 5001:4001,5002:4003)"
                        )
                    }
                    return MarkbookSandboxModule.ResultCell(studentKey: student, taskKey: task)
                }
            )
        }
        if let text = Self.value(Self.failWithVariable, environment) {
            guard let failure = Self.failure(text) else {
                throw SandboxSettingError(
                    variable: Self.failWithVariable,
                    value: text,
                    expected: "error, error:REASON, http:CODE or lost:CODE (CODE from 400 to 599)"
                )
            }
            resultWriteFaults.failure = failure
        }
    }

    private static func value(_ name: String, _ environment: [String: String]) -> String? {
        guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    private static func failure(_ text: String) -> ResultWriteFaults.Failure? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        let code = argument.flatMap(Int.init).flatMap { (400...599).contains($0) ? $0 : nil }
        switch parts.first?.lowercased() {
        case "error": return .status(argument.flatMap { $0.isEmpty ? nil : $0 } ?? "service unavailable")
        case "http": return code.map { .httpStatus($0) }
        case "lost": return code.map { .lostAnswer(httpStatus: $0) }
        default: return nil
        }
    }
}
