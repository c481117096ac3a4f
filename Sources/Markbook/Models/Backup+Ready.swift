import Foundation
import HTTPCore

/// Why a backup cannot be downloaded now: it is not built yet, or there is none.
///
/// Thrown by ``BackupURL/readyURL()`` and ``MarkbookClient/readyBackupURL()`` so that a
/// download can treat "come back tomorrow" and "schedule one first" as the distinct outcomes they
/// are, apart from real failures (``HTTPCore/APIError``). ``code`` is stable for scripts; the
/// `markbook` command maps each to its own exit code.
///
/// ```swift
/// do {
///     let url = try await client.readyBackupURL()
///     // download url …
/// } catch let unavailable as BackupUnavailable where unavailable.reason == .pending {
///     print("Not built yet: try again tomorrow.")
/// }
/// ```
public struct BackupUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// The two ways a backup can be unavailable.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// `ERROR:pending`: scheduled, not built yet (builds run at about 1 AM).
        case pending = "backup_pending"
        /// `ERROR:no backup`: none scheduled, or the last one was deleted (an hour after its URL
        /// was first returned).
        case noBackup = "no_backup"
    }

    /// Which one.
    public var reason: Reason
    /// The status the API answered, e.g. `ERROR:pending`.
    public var rawStatus: String

    /// Creates the error.
    public init(reason: Reason, rawStatus: String) {
        self.reason = reason
        self.rawStatus = rawStatus
    }

    /// A stable code for scripts: `backup_pending` or `no_backup`.
    public var code: String { reason.rawValue }

    /// A sentence for people.
    public var message: String {
        switch reason {
        case .pending:
            return "The backup is not built yet: Markbook builds it at about 1 AM the day after it is scheduled."
        case .noBackup:
            return
                "There is no backup: none is scheduled, or the last one was deleted an hour after its URL was first fetched."
        }
    }

    /// What to do about it.
    public var hint: String {
        switch reason {
        case .pending: return "Try again tomorrow."
        case .noBackup: return "Schedule one (scheduleBackup(matching:)) and download it the next day."
        }
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}

extension BackupURL {
    /// The URL to download, when the backup is ready.
    ///
    /// - Throws: ``BackupUnavailable`` for `ERROR:pending` and `ERROR:no backup`;
    ///   ``HTTPCore/APIError/apiError(_:)`` for any other status, or `OKAY` without a URL.
    public func readyURL() throws -> URL {
        switch status {
        case .okay:
            if let url { return url }
            throw APIError.apiError(
                APIError.Details(message: "Markbook answered getbackupurl OKAY without a URL.", rawStatus: "OKAY")
            )
        case .errorPending:
            throw BackupUnavailable(reason: .pending, rawStatus: status.rawStatus)
        case .errorNoBackup:
            throw BackupUnavailable(reason: .noBackup, rawStatus: status.rawStatus)
        case .error(let reason):
            throw APIError.apiError(
                APIError.Details(message: "Markbook refused getbackupurl: \(reason).", rawStatus: status.rawStatus)
            )
        }
    }
}
