import HTTPCore

extension Renderer {
    /// Members a kind derives from other records (a list's completion ratio, a column's cards, an
    /// upload's file) rather than from what was written to it.
    func derived(_ record: Record) -> [String: JSONValue] {
        let (id, path) = (record.id, record.kind.path(of: record))
        func active(_ kind: RecordKind, in parentID: Int = id) -> [Record] {
            data.records.filter { $0.kind == kind && $0.parentID == parentID && $0.status == "active" }
        }
        var members: [String: JSONValue] = [:]
        // Links to what it holds, and how many are active; the schema keeps the ones it has.
        func holds(_ name: String, _ kind: RecordKind? = nil) {
            members["\(name)_url"] = api("\(path)/\(name).json")
            members["app_\(name)_url"] = app("\(path)/\(name)")
            if let kind { members["\(name)_count"] = .integer(active(kind).count) }
        }
        if let dock = record.kind.dock {
            (members["position"], members["name"]) = (.integer(record.kind.dockPosition), .string(dock.name))
        }
        switch record.kind {
        case .project:
            let tools = data.records.filter { $0.parentID == id && $0.kind.dock != nil }
            members["dock"] = .array(tools.sorted { $0.kind.dockPosition < $1.kind.dockPosition }.map(dockItem))
        case .todoset:
            let todos = active(.todolist).flatMap { active(.todo, in: $0.id) }
            members.merge(completion(of: todos)) { _, new in new }
            (members["todos_count"], members["completed_loose_todos_count"]) = (.integer(todos.count), 0)
            holds("todolists", .todolist)
            holds("todos")
        case .todolist:
            members.merge(completion(of: active(.todo))) { _, new in new }
            members["bubble_up_url"] = api("/recordings/\(id)/subscription.json")
            holds("todos")
            holds("groups")
        case .todo, .card:
            members["completion_url"] = api("\(path)/completion.json")
            if record.kind == .card { members["steps"] = .array(active(.cardStep).map { self.record($0) }) }
        case .comment:
            members["title"] = .string("Re: " + (data.record(record.parentID)?.title ?? ""))
        case .vault:
            holds("uploads", .upload)
            holds("vaults", .vault)
            holds("documents", .document)
        case .upload:
            members.merge(file(record.fields["attachable_sgid"]?.stringValue ?? "", named: record.title)) { $1 }
        case .cardTable:
            members["lists"] = .array(active(.cardColumn).map { self.record($0) })
        case .cardColumn:
            members["cards_count"] = .integer(active(.card).count)
            members["cards_url"] = api("/card_tables/lists/\(id)/cards.json")
        case .campfire:
            (members["topic"], members["files_url"]) = (.string(record.title), api("\(path)/uploads.json"))
            holds("lines")
        case .questionnaire:
            members["name"] = .string(record.title)
            holds("questions", .question)
        case .question:
            members["paused"] = record.fields["paused"] ?? false
            holds("answers", .answer)
        case .boost:
            (members["booster"], members["recording"]) = (person(record.creatorID), summary(of: record.parentID))
        case .messageBoard: holds("messages", .message)
        case .schedule: holds("entries", .scheduleEntry)
        case .message, .document, .cardStep, .scheduleEntry, .campfireLine, .answer, .messageType, .webhook: break
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
    /// downloads as `filename`: its `download_url` is on the storage host, as Basecamp's are.
    func file(_ sgid: String, named filename: String) -> [String: JSONValue] {
        let attachment = data.attachment(sgid)
        // The name is one path segment, so a `/` in it is escaped too.
        let escaped =
            filename.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? filename
        return [
            "content_type": .string(attachment?.contentType ?? "application/octet-stream"),
            "byte_size": .integer(attachment?.size ?? 0),
            "download_url": .string(storageBase + "/blobs/\(sgid)/download/\(escaped)"),
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
