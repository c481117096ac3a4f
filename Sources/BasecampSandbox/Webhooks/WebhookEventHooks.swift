import Foundation
import HTTPCore

/// The hooks the recording handlers call after a change succeeded: each names the event's kind
/// and hands it to the server's ``WebhookDispatcher``, which delivers it off the request path.
extension Handlers {
    /// Announces `kind` about the record `reply` answered with (its `id`), and passes `reply` on.
    func announcing(_ kind: String, _ reply: APIReply) -> APIReply {
        if case .json(let value, _) = reply, let id = value["id"]?.intValue {
            announce(kind, recordingID: id)
        }
        return reply
    }

    /// Announces `kind` about the recording `recordingID`, and passes `reply` on.
    func announcing(_ kind: String, recording recordingID: Int, _ reply: APIReply) -> APIReply {
        announce(kind, recordingID: recordingID)
        return reply
    }

    /// Announces a status change (`todo_trashed`, `message_archived`…) of the recording the path
    /// names, and passes `reply` on.
    func announcingStatus(_ change: String, _ reply: APIReply) -> APIReply {
        if let id = request.integer("recordingId"), let recording = store.snapshot().recordingSource(id) {
            announce("\(recording.eventPrefix)_\(change)", recordingID: id)
        }
        return reply
    }

    private func announce(_ kind: String, recordingID: Int) {
        server.webhooks.announce(kind: kind, recordingID: recordingID, origin: request.origin)
    }
}
