import HTTPCore

extension Renderer {
    /// A kept record: the Spec's example for its kind, the members every recording shares, then
    /// what the client sent, with `…_ids` members answered as the people they name.
    func stored(_ record: StoredRecording) -> JSONValue {
        let kind = record.kind
        let path = kind.path(id: record.id, parentID: record.parentID, projectID: record.projectID)
        var members: [String: JSONValue]
        if kind.isRecording {
            members = recording(record, type: kind.type, path: path, title: record.title)
            members["parent"] = container(of: record)
        } else {
            members = [
                "id": .integer(record.id), "created_at": .string(record.createdAt),
                "updated_at": .string(record.updatedAt),
            ]
        }
        for (key, value) in record.fields where !Self.unkeptMembers.contains(key) {
            if key.hasSuffix("_ids"), let ids = value.arrayValue {
                members[String(key.dropLast(4)) + "s"] = .array(ids.compactMap(\.intValue).map(person))
            } else {
                members[key] = value
            }
        }
        members.merge(extras(record, path: path)) { _, extra in extra }
        if Templates.byKind[kind]?["position"] != nil {
            let position = data.keptRecords.recordings.position(of: record.id) {
                $0.parentID == record.parentID && $0.kind == kind
            }
            members["position"] = .integer(position)
        }
        return (Templates.blankByKind[kind] ?? .null).merging(members)
    }

    /// Request members that are instructions, not facts of the record.
    private static let unkeptMembers: Set<String> = ["notify", "subscriptions", "completion", "content_type"]

    /// Members a kind derives from other records: a column's cards, a card's steps, a boost's
    /// booster.
    private func extras(_ record: StoredRecording, path: String) -> [String: JSONValue] {
        let recordings = data.keptRecords.recordings
        func isChild(_ other: StoredRecording) -> Bool { other.parentID == record.id && other.status == "active" }
        switch record.kind {
        case .cardColumn:
            return [
                "cards_count": .integer(recordings.count(where: isChild)),
                "cards_url": api("/card_tables/lists/\(record.id)/cards.json"),
            ]
        case .card:
            let steps = recordings.filter { isChild($0) && $0.kind == .cardStep }
            return ["steps": .array(steps.map(stored)), "completion_url": api("\(path)/completion.json")]
        case .question:
            return [
                "answers_count": .integer(recordings.count(where: isChild)), "paused": record.fields["paused"] ?? false,
            ]
        case .boost:
            return ["booster": person(record.creatorID), "recording": parentSummary(of: record)]
        case .cardStep, .scheduleEntry, .campfireLine, .answer, .messageType:
            return [:]
        }
    }

    private func parentSummary(of record: StoredRecording) -> JSONValue {
        guard let parent = data.recordingSource(record.parentID) else { return .null }
        return [
            "id": .integer(parent.id), "title": .string(parent.title), "type": .string(parent.type),
            "url": api(parent.path), "app_url": app(parent.path), "bucket": bucket(parent.projectID),
        ]
    }

    /// The `parent` member: the tool or record that holds `record`.
    private func container(of record: StoredRecording) -> JSONValue {
        let (title, type, path): (String, String, String)
        switch record.kind.container {
        case .tool(let tool):
            (title, type, path) = (tool.title, tool.type, tool.path(record.parentID))
        case .kind(let kind):
            let parent = data.stored(record.parentID)
            (title, type) = (parent?.title ?? "", kind.type)
            path = kind.path(id: record.parentID, parentID: parent?.parentID ?? 0, projectID: record.projectID)
        case .project, .anyRecording:
            return parentSummary(of: record)
        }
        return [
            "id": .integer(record.parentID), "title": .string(title), "type": .string(type),
            "url": api(path), "app_url": app(path),
        ]
    }

    /// A project's dock tool: the card table lists its columns, the others count what they hold.
    func tool(_ tool: ProjectTool, projectID: Int) -> JSONValue {
        let id = tool.id(ofProject: projectID)
        let project = data.project(projectID)
        var members = recording(
            id: id,
            type: tool.type,
            path: tool.path(id),
            status: "active",
            title: tool.title,
            projectID: projectID,
            creatorID: data.meID,
            createdAt: project?.createdAt ?? "",
            updatedAt: project?.updatedAt ?? ""
        )
        let held = data.keptRecords.recordings.filter { $0.parentID == id && $0.status == "active" }
        switch tool {
        case .cardTable:
            members["lists"] = .array(held.map(stored))
        case .schedule:
            members["entries_count"] = .integer(held.count)
            members["entries_url"] = api("/schedules/\(id)/entries.json")
        case .campfire:
            members["topic"] = .string(tool.title)
            members["lines_url"] = api("/chats/\(id)/lines.json")
            members["files_url"] = api("/chats/\(id)/uploads.json")
        case .questionnaire:
            members["name"] = .string(tool.title)
            members["questions_count"] = .integer(held.count)
            members["questions_url"] = api("/questionnaires/\(id)/questions.json")
        }
        return (Templates.blankByTool[tool] ?? .null).merging(members)
    }

    /// The dock entry for a project's tool.
    func toolDockItem(_ tool: ProjectTool, projectID: Int, position: Int) -> JSONValue {
        let id = tool.id(ofProject: projectID)
        return [
            "id": .integer(id), "title": .string(tool.title), "name": .string(tool.dockName), "enabled": true,
            "position": .integer(position), "url": api(tool.path(id)), "app_url": app(tool.path(id)),
        ]
    }
}

extension Templates {
    /// Each kept kind's example, parsed once: the shapes a request's members are checked against.
    static let byKind = Dictionary(uniqueKeysWithValues: RecordingKind.allCases.map { ($0, parsed($0.schema)) })

    /// Each kept kind's example with its made-up facts cleared, so that a record shows only
    /// what was written: every member the SDK expects, none of the example's people or text.
    static let blankByKind = byKind.mapValues(\.blanked)

    /// Each dock tool's example, cleared the same way.
    static let blankByTool = Dictionary(
        uniqueKeysWithValues: ProjectTool.allCases.map { ($0, parsed($0.schema).blanked) }
    )
}

extension JSONValue {
    /// The example with lists emptied, sample text and completion facts cleared, and `completed`
    /// false; what a record sets is merged over it.
    fileprivate var blanked: JSONValue {
        guard case .object(let members) = self else { return self }
        var blank = members
        for (key, value) in members {
            switch value {
            case .array: blank[key] = []
            case .string(let text) where text.hasPrefix("Example"): blank[key] = ""
            default: break
            }
        }
        for key in ["completer", "completed_at", "due_on", "starts_on"] where blank[key] != nil { blank[key] = .null }
        if blank["completed"] != nil { blank["completed"] = false }
        return .object(blank)
    }
}
