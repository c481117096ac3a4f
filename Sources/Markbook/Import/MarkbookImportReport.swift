import HTTPCore

/// What applying a ``MarkbookImportPlan`` did, change by change.
///
/// A change is in ``applied`` only when the API answered its `putstudentresult` with `OKAY`. A
/// write that was refused or never sent is in ``failed``; a write whose answer was lost is in
/// ``unknownOutcome``: it may or may not have reached the markbook, and running the import again
/// finds out (a cell it wrote then plans as unchanged). ``isComplete`` is `true` only when every
/// planned change is confirmed in the markbook.
public struct MarkbookImportReport: Sendable {
    /// A write that was not confirmed.
    public struct Failure: Sendable {
        /// The change.
        public var change: MarkbookImportPlan.Change
        /// The error the write ended with: an `APIError`, or `CancellationError` when the import
        /// was cancelled while the write was in flight.
        public var error: any Error

        /// Creates a failure.
        public init(change: MarkbookImportPlan.Change, error: any Error) {
            self.change = change
            self.error = error
        }

        /// The `APIError` code (`network`, `api_error`, …), or `cancelled`.
        public var code: String {
            if let error = error as? APIError { return error.code.rawValue }
            return error is CancellationError ? "cancelled" : "unknown"
        }
    }

    /// A change left alone because the markbook moved on since the plan was made.
    public struct Conflict: Sendable, Hashable {
        /// Why the change was not written.
        public enum Reason: Sendable, Hashable {
            /// Someone else changed the result since the plan was made; it now holds `current`
            /// (`nil`: no result).
            case changedSincePlan(current: MarkbookResult?)
            /// The student is no longer in the markbook (deleted, or their sid changed).
            case studentGone
            /// The task is no longer in the markbook.
            case taskGone
        }

        /// The change.
        public var change: MarkbookImportPlan.Change
        /// Why it was not written.
        public var reason: Reason

        /// Creates a conflict.
        public init(change: MarkbookImportPlan.Change, reason: Reason) {
            self.change = change
            self.reason = reason
        }
    }

    /// The markbook written to.
    public var markbookKey: Int
    /// Changes the API confirmed, in plan order.
    public var applied: [MarkbookImportPlan.Change] = []
    /// Changes whose write failed and did not reach the markbook (refused, or never sent), in plan
    /// order.
    public var failed: [Failure] = []
    /// Changes whose write may or may not have reached the markbook (``outcomeIsUnknown(_:)``), in
    /// plan order.
    public var unknownOutcome: [Failure] = []
    /// Changes the markbook already held when the import re-read it (applied by an earlier,
    /// interrupted run, or by someone else): not written again.
    public var alreadyApplied: [MarkbookImportPlan.Change] = []
    /// Changes not written because the markbook changed since the plan.
    public var conflicts: [Conflict] = []
    /// Changes never sent: the import stopped after a failure, or was cancelled.
    public var notAttempted: [MarkbookImportPlan.Change] = []
    /// Cells the plan found already holding their result.
    public var unchangedInPlan = 0
    /// Invalid values skipped (applying with `skippingInvalid`).
    public var skippedInvalid = 0

    /// Creates an empty report for `markbookKey`.
    public init(markbookKey: Int) {
        self.markbookKey = markbookKey
    }

    /// Cells that needed no write: unchanged in the plan, or already applied when re-read.
    public var unchangedCount: Int { unchangedInPlan + alreadyApplied.count }

    /// Whether every planned change is now confirmed in the markbook: nothing failed, had an
    /// unknown outcome, conflicted or was left unsent. Invalid values skipped on request do not
    /// count against it.
    public var isComplete: Bool {
        failed.isEmpty && unknownOutcome.isEmpty && conflicts.isEmpty && notAttempted.isEmpty
    }

    /// The first failure's error, for an exit code; `nil` when nothing failed.
    public var firstError: (any Error)? { failed.first?.error }

    /// Whether a write that ended with `error` may have reached the markbook: the API's own answer
    /// (its envelope) never arrived, yet the request may have got to the server. That is a 5xx from
    /// something in front of the API (the API itself answers every call with HTTP 200), a 2xx
    /// answer that could not be read, a connection lost or timed out after sending, or an
    /// `ambiguous` error. A refusal (an `ERROR:` status, a 4xx) or a request never sent is a plain
    /// failure, unless an earlier attempt of the same write may have been applied
    /// (``HTTPCore/APIError/Details/earlierAttemptMayHaveBeenApplied``).
    public static func outcomeIsUnknown(_ error: any Error) -> Bool {
        guard let error = error as? APIError else { return false }
        if error.details.earlierAttemptMayHaveBeenApplied { return true }
        guard error.details.rawStatus == nil else { return false }
        switch error.code {
        case .ambiguous:
            return true
        case .network:
            return (error.cause as? TransportError)?.requestMayHaveBeenSent ?? false
        case .apiError, .limitExceeded:
            // No status and no transport cause: an answer arrived but could not be read.
            guard let status = error.httpStatus else { return !(error.cause is TransportError) }
            return (200...299).contains(status) || (500...599).contains(status)
        default:
            return false
        }
    }
}
