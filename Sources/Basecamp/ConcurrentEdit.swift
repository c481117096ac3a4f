import Foundation
import HTTPCore

/// The check the generated `modify…` helpers make before they write: Basecamp has no
/// conditional writes, so a record's `updated_at` is read again just before the full state is
/// sent, and a record someone changed since the first read is left alone.
enum ConcurrentEdit {
    /// Throws when `latest` reports a different `updated_at` from the one the edit started from.
    ///
    /// - Throws: ``HTTPCore/APIError/apiError(_:)`` naming the change; nothing was sent.
    static func ensureUnchanged(
        _ readAt: Date,
        record: String,
        latest: () async throws -> Date
    ) async throws {
        let now = try await latest()
        guard now != readAt else { return }
        throw conflict(record: record, readAt: readAt, now: now)
    }

    static func conflict(record: String, readAt: Date, now: Date) -> APIError {
        APIError.apiError(
            APIError.Details(
                message:
                    "The \(record) changed while it was being edited (updated at \(WireFormat.string(from: now)), read at \(WireFormat.string(from: readAt))); nothing was sent.",
                hint: "Run the edit again to apply it to the current version."
            )
        )
    }
}
