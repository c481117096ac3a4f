import HTTPCore

/// A recording's events and its project's timeline, newest first: what ``Call/write(_:)``
/// recorded of the changes requests made.
extension Call {
    func events() throws -> APIReply {
        let data = store.snapshot()
        let id = try named(nil, in: data).id
        return .list(Array(data.events.filter { $0.recordingID == id }.reversed()), renderer(data).event)
    }

    func timeline() throws -> APIReply {
        let data = store.snapshot()
        let id = try named(.project, in: data).id
        return .list(Array(data.events.filter { $0.projectID == id }.reversed()), renderer(data).timelineEvent)
    }
}

extension Renderer {
    func event(_ event: EventRecord) -> JSONValue {
        Templates.event.merging([
            "id": .integer(event.id),
            "recording_id": .integer(event.recordingID),
            "action": .string(event.action),
            "details": [:],
            "created_at": .string(event.createdAt),
            "creator": person(event.creatorID),
            "boosts_count": 0,
            "boosts_url": api("/recordings/\(event.recordingID)/events/\(event.id)/boosts.json"),
        ])
    }

    func timelineEvent(_ event: EventRecord) -> JSONValue {
        let recording = data.recording(event.recordingID)
        let path = recording.map { $0.kind.path(of: $0) } ?? "/recordings/\(event.recordingID)"
        return Templates.timelineEvent.merging([
            "id": .integer(event.id),
            "action": .string(event.action),
            "kind": .string(Self.kind(of: event, recording)),
            "target": .string(recording?.kind.type ?? "Recording"),
            "title": .string(recording?.title ?? ""),
            "summary_excerpt": .string(String((recording?.text ?? "").prefix(200))),
            "parent_recording_id": .integer(event.recordingID),
            "created_at": .string(event.createdAt),
            "creator": person(event.creatorID),
            "bucket": bucket(event.projectID),
            "url": api(path),
            "app_url": app(path),
            "attachments": [],
        ])
    }

    /// What webhooks and the timeline call the event: `todo_completed`, `kanban_card_moved`…
    static func kind(of event: EventRecord, _ recording: Record?) -> String {
        (recording?.kind.events ?? "recording") + "_" + event.action
    }
}
