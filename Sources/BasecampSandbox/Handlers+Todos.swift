import Foundation
import HTTPCore

extension Handlers {
    func listTodolists() throws -> APIReply {
        let status = request.queryValue("status") ?? "active"
        return try listed(in: "todosetId", "To-do set", AccountData.todoset, Renderer.todolist) { data, id in
            data.todolists.filter { $0.todosetID == id && $0.status == status }
        }
    }

    func createTodolist() throws -> APIReply {
        let todosetID = try id("todosetId")
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        let now = Self.now()
        return try created(AccountData.todolist, Renderer.todolist) { data in
            guard let todoset = data.todoset(todosetID) else { throw APIFailure.notFound("To-do set \(todosetID)") }
            let id = data.makeID()
            data.todolists.append(
                TodolistRecord(
                    id: id,
                    projectID: todoset.projectID,
                    todosetID: todosetID,
                    name: name,
                    description: body["description"]?.stringValue ?? "",
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    /// A full replace, as the Spec says: a description left out is cleared.
    func updateTodolist() throws -> APIReply {
        let id = try id("id")
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        return try updated(\.todolists, id, noun: "To-do list", Renderer.todolist) { list, _ in
            list.name = name
            list.description = body["description"]?.stringValue ?? ""
        }
    }

    // MARK: To-dos

    /// Open to-dos by default; `completed=true` lists the completed ones and `status` picks
    /// archived or trashed ones, as Basecamp does.
    func listTodos() throws -> APIReply {
        let status = request.queryValue("status") ?? "active"
        let completed = request.queryValue("completed") == "true"
        return try listed(in: "todolistId", "To-do list", AccountData.todolist, Renderer.todo) { data, id in
            data.todos.filter { $0.todolistID == id && $0.status == status && $0.completed == completed }
        }
    }

    /// The to-do fields of a create or replace body, checked as Basecamp checks them.
    struct TodoFields {
        var content: String
        var description: String
        var assigneeIDs: [Int]
        var subscriberIDs: [Int]
        var dueOn: String?
        var startsOn: String?
    }

    func todoFields(_ body: [String: JSONValue], data: AccountData) throws -> TodoFields {
        let fields = TodoFields(
            content: try requiredText(body, "content"),
            description: body["description"]?.stringValue ?? "",
            assigneeIDs: try people(body, "assignee_ids", data: data),
            subscriberIDs: try people(body, "completion_subscriber_ids", data: data),
            dueOn: try date(body, "due_on"),
            startsOn: try date(body, "starts_on")
        )
        if let starts = fields.startsOn, let due = fields.dueOn, starts > due {
            throw APIFailure.invalid("starts_on", "must not be after due_on")
        }
        return fields
    }

    func createTodo() throws -> APIReply {
        let listID = try id("todolistId")
        let body = try request.jsonObject()
        let now = Self.now()
        return try created(AccountData.todo, Renderer.todo) { data in
            guard let list = data.todolist(listID) else { throw APIFailure.notFound("To-do list \(listID)") }
            let fields = try todoFields(body, data: data)
            let id = data.makeID()
            data.todos.append(
                TodoRecord(
                    id: id,
                    projectID: list.projectID,
                    todolistID: listID,
                    content: fields.content,
                    description: fields.description,
                    dueOn: fields.dueOn,
                    startsOn: fields.startsOn,
                    assigneeIDs: fields.assigneeIDs,
                    completionSubscriberIDs: fields.subscriberIDs,
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    /// A full replace: fields left out (description, assignees, dates) are cleared.
    func replaceTodo() throws -> APIReply {
        let id = try id("todoId")
        let body = try request.jsonObject()
        return try updated(\.todos, id, noun: "To-do", Renderer.todo) { todo, current in
            let fields = try todoFields(body, data: current)
            todo.content = fields.content
            todo.description = fields.description
            todo.assigneeIDs = fields.assigneeIDs
            todo.completionSubscriberIDs = fields.subscriberIDs
            todo.dueOn = fields.dueOn
            todo.startsOn = fields.startsOn
        }
    }

    func setCompleted(_ completed: Bool) throws -> APIReply {
        let id = try id("todoId")
        let now = Self.now()
        try store.update { data in
            try data.change(\.todos, id, noun: "To-do", at: now) { $0.completed = completed }
        }
        return .empty(status: request.operation.successStatus)
    }

    /// Moves a to-do to `position` (1-based) in its list, or in the list `parent_id` names.
    func repositionTodo() throws -> APIReply {
        let id = try id("todoId")
        let body = try request.jsonObject()
        guard let position = body["position"]?.intValue, position >= 1 else {
            throw APIFailure.invalid("position", "must be a whole number of at least 1")
        }
        try store.update { data in
            guard let index = data.todos.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("To-do \(id)")
            }
            var todo = data.todos.remove(at: index)
            if let parent = body["parent_id"]?.intValue {
                guard let list = data.todolist(parent) else { throw APIFailure.notFound("To-do list \(parent)") }
                todo.todolistID = list.id
                todo.projectID = list.projectID
            }
            let siblings = data.todos.indices.filter { data.todos[$0].todolistID == todo.todolistID }
            let target = position - 1 < siblings.count ? siblings[position - 1] : (siblings.last.map { $0 + 1 } ?? 0)
            data.todos.insert(todo, at: min(target, data.todos.count))
        }
        return .empty(status: request.operation.successStatus)
    }

    func setRecordingStatus(_ status: String) throws -> APIReply {
        let id = try id("recordingId")
        let now = Self.now()
        try store.update { try $0.setStatus(status, ofRecording: id, at: now) }
        return .empty(status: request.operation.successStatus)
    }
}
