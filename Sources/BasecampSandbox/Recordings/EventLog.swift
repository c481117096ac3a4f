import HTTPCore
import HTTPTypes

/// Events recorded from the changes requests make, for a recording's events and its project's
/// timeline: the action comes from the operation's verb, the recording from the answer or path.
extension Handlers {
    /// Records the event a successful change made, if it changed a recording.
    func recordEvent(after reply: APIReply) {
        let operationID = request.operation.id
        // An example answer changed nothing, so it makes no event.
        if case .example = reply { return }
        guard request.operation.method != .get, operationID != "CreateBookmark",
            let action = Self.action(of: operationID)
        else { return }
        var candidates: [Int] = []
        if case .json(let value, _) = reply, let id = value["id"]?.intValue { candidates.append(id) }
        for name in ["recordingId", "todoId", "cardId", "entryId", "lineId", "questionId", "answerId", "stepId"] {
            if let id = request.integer(name) { candidates.append(id) }
        }
        // Looked up first, so that a write that touched no recording does not save the account again.
        guard let recording = candidates.lazy.compactMap(store.snapshot().recordingSource).first else { return }
        let now = Self.now()
        // The change itself is saved already; an event that cannot be saved is left out rather
        // than failing a request whose write succeeded.
        _ = try? store.update { data in
            let id = data.makeID()
            data.keptRecords.events.append(
                EventRecord(
                    id: id,
                    recordingID: recording.id,
                    projectID: recording.projectID,
                    action: action,
                    creatorID: data.meID,
                    createdAt: now
                )
            )
        }
    }

    /// The event's action for an operation, from its verb; `nil` for one that changes nothing a
    /// timeline shows (subscribing, bookmarking).
    static func action(of operationID: String) -> String? {
        if operationID == "CreateRecordingBoost" { return "boosted" }
        let verbs: [(String, String)] = [
            ("Create", "created"), ("Update", "content_changed"), ("Replace", "content_changed"),
            ("Trash", "trashed"), ("Archive", "archived"), ("Unarchive", "unarchived"), ("Complete", "completed"),
            ("Uncomplete", "uncompleted"), ("Move", "moved"), ("Reposition", "repositioned"),
            ("SetCardStepCompletion", "completion_changed"), ("Set", "changed"),
        ]
        return verbs.first { operationID.hasPrefix($0.0) }?.1
    }

    /// Newest first, as Basecamp lists them.
    func listEvents() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("recordingId")
        guard data.recordingSource(id) != nil else { throw APIFailure.notFound("Recording \(id)") }
        return .list(data.keptRecords.events.filter { $0.recordingID == id }.reversed(), renderer(data).event)
    }

    /// The project's events, newest first.
    func projectTimeline() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("projectId")
        guard data.project(id) != nil else { throw APIFailure.notFound("Project \(id)") }
        return .list(data.keptRecords.events.filter { $0.projectID == id }.reversed(), renderer(data).timelineEvent)
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
        let recording = data.recordingSource(event.recordingID)
        let prefix = recording?.eventPrefix ?? "recording"
        let path = recording?.path ?? "/recordings/\(event.recordingID)"
        return Templates.timelineEvent.merging([
            "id": .integer(event.id),
            "action": .string(event.action),
            "kind": .string("\(prefix)_\(event.action)"),
            "target": .string(recording?.type ?? "Recording"),
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
}

extension Templates {
    static let event = parsed("Event")
    static let timelineEvent = parsed("TimelineEvent")
    static let searchResult = parsed("SearchResult")
    static let bookmark = parsed("Bookmark")
    static let subscription = parsed("Subscription")
}
