import HTTPCore

extension Renderer {
    /// Members a kind derives from other records (a list's completion ratio, a column's cards, an
    /// upload's file) rather than from what was written to it.
    func derived(_ record: Record) -> [String: JSONValue] {
        let id = record.id
        let path = record.kind.path(of: record)
        func active(_ kind: RecordKind, in parentID: Int = id) -> [Record] {
            data.records.filter { $0.kind == kind && $0.parentID == parentID && $0.status == "active" }
        }
        var members: [String: JSONValue] = [:]
        if let dock = record.kind.dock {
            members["position"] = .integer(record.kind.dockPosition)
            members["name"] = .string(dock.name)
        }
        switch record.kind {
        case .project:
            let tools = data.records.filter { $0.parentID == id && $0.kind.dock != nil }
            members["dock"] = .array(tools.sorted { $0.kind.dockPosition < $1.kind.dockPosition }.map(dockItem))
        case .todoset:
            let lists = active(.todolist)
            let todos = lists.flatMap { active(.todo, in: $0.id) }
            members.merge(completion(of: todos)) { _, new in new }
            members["todolists_count"] = .integer(lists.count)
            members["todolists_url"] = api("\(path)/todolists.json")
            members["app_todolists_url"] = app("\(path)/todolists")
            members["todos_count"] = .integer(todos.count)
            members["completed_loose_todos_count"] = 0
            members["todos_url"] = api("\(path)/todos.json")
            members["app_todos_url"] = app("\(path)/todos")
        case .messageBoard:
            members["messages_count"] = .integer(active(.message).count)
            members["messages_url"] = api("\(path)/messages.json")
            members["app_messages_url"] = app("\(path)/messages")
        case .todolist:
            members.merge(completion(of: active(.todo))) { _, new in new }
            members["todos_url"] = api("\(path)/todos.json")
            members["app_todos_url"] = app("\(path)/todos")
            members["groups_url"] = api("\(path)/groups.json")
            members["bubble_up_url"] = api("/recordings/\(id)/subscription.json")
        case .todo:
            members["completion_url"] = api("\(path)/completion.json")
        case .card:
            members["completion_url"] = api("\(path)/completion.json")
            members["steps"] = .array(active(.cardStep).map { self.record($0) })
        case .comment:
            members["title"] = .string("Re: " + (data.record(record.parentID)?.title ?? ""))
        case .vault:
            for (kind, name) in [(RecordKind.upload, "uploads"), (.vault, "vaults"), (.document, "documents")] {
                members["\(name)_count"] = .integer(active(kind).count)
                members["\(name)_url"] = api("\(path)/\(name).json")
            }
        case .upload:
            members.merge(file(record.fields["attachable_sgid"]?.stringValue ?? "", named: record.title)) { _, new in
                new
            }
        case .cardTable:
            members["lists"] = .array(active(.cardColumn).map { self.record($0) })
        case .cardColumn:
            members["cards_count"] = .integer(active(.card).count)
            members["cards_url"] = api("/card_tables/lists/\(id)/cards.json")
        case .schedule:
            members["entries_count"] = .integer(active(.scheduleEntry).count)
            members["entries_url"] = api("\(path)/entries.json")
        case .campfire:
            members["topic"] = .string(record.title)
            members["lines_url"] = api("\(path)/lines.json")
            members["files_url"] = api("\(path)/uploads.json")
        case .questionnaire:
            members["name"] = .string(record.title)
            members["questions_count"] = .integer(active(.question).count)
            members["questions_url"] = api("\(path)/questions.json")
        case .question:
            members["answers_count"] = .integer(active(.answer).count)
            members["paused"] = record.fields["paused"] ?? false
        case .boost:
            members["booster"] = person(record.creatorID)
            members["recording"] = summary(of: record.parentID)
        case .message, .document, .cardStep, .scheduleEntry, .campfireLine, .answer, .messageType, .webhook:
            break
        }
        return members
    }

    /// `completed` and `completed_ratio` of a list (or a whole to-do set) of to-dos.
    private func completion(of todos: [Record]) -> [String: JSONValue] {
        let done = todos.count { $0.fields["completed"]?.boolValue == true }
        return [
            "completed": .bool(!todos.isEmpty && done == todos.count),
            "completed_ratio": .string("\(done)/\(todos.count)"),
        ]
    }

    /// The members an upload (or one of its versions) takes from the file behind `sgid`, which
    /// downloads as `filename`.
    func file(_ sgid: String, named filename: String) -> [String: JSONValue] {
        let attachment = data.attachment(sgid)
        let escaped = filename.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? filename
        return [
            "content_type": .string(attachment?.contentType ?? "application/octet-stream"),
            "byte_size": .integer(attachment?.data.count ?? 0),
            "download_url": .string(apiBase + "/blobs/\(sgid)/download/\(escaped)"),
            "width": .null,
            "height": .null,
        ]
    }

    /// A project's dock entry for one of its tools.
    private func dockItem(_ tool: Record) -> JSONValue {
        let path = tool.kind.path(of: tool)
        return [
            "id": .integer(tool.id), "title": .string(tool.title), "name": .string(tool.kind.dock?.name ?? ""),
            "enabled": true, "position": .integer(tool.kind.dockPosition), "url": api(path), "app_url": app(path),
        ]
    }
}
