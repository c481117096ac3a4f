import Foundation
import HTTPCore

/// The checks the generated `modify…` helpers make between their one read and their one write.
enum ConcurrentEdit {
    /// Throws when the record read at `readAt` changed after `since`, the `updated_at` of the
    /// copy a person has been editing; `nil` accepts any record (the read is the edit's start).
    ///
    /// - Throws: ``HTTPCore/APIError/apiError(_:)`` naming the change; nothing was written.
    static func ensureUnchanged(_ readAt: Date, since: Date?, record: String) throws {
        guard let since, since != readAt else { return }
        throw APIError.apiError(
            APIError.Details(
                message:
                    "The \(record) changed while it was being edited (updated at \(WireFormat.string(from: readAt)), edited from \(WireFormat.string(from: since))); nothing was sent.",
                hint: "Run the edit again to apply it to the current version."
            )
        )
    }

    /// Throws unless `value` is set: the `record` record does not carry the member, so a request
    /// built from it starts without one.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)``; nothing was written.
    static func require(_ value: String?, _ member: String, operation: String, record: String) throws {
        guard value?.isEmpty ?? true else { return }
        try missing(member, operation: operation, record: record)
    }

    /// A list the record does not include must be set; set empty, it says "none" on purpose.
    static func require<Element>(_ value: [Element]?, _ member: String, operation: String, record: String) throws {
        guard value == nil else { return }
        try missing(member, operation: operation, record: record)
    }

    private static func missing(_ member: String, operation: String, record: String) throws {
        throw APIError.usage(
            APIError.Details(
                message:
                    "\(operation) replaces the whole record and needs `\(member)`, which the \(record) record does not include.",
                hint: "Set `\(member)` in the change closure."
            )
        )
    }
}
