import Foundation
import HTTPCore

/// Answers one request: the stateful resources (projects, people, to-do sets, lists and to-dos,
/// message boards, messages, comments) from the account's data, every other operation with the
/// Spec's example for its response.
struct Handlers {
    let server: BasecampServer
    let request: APIRequest

    private var store: AccountStore { server.store }

    private func renderer(_ data: AccountData) -> Renderer {
        Renderer(origin: request.origin, basePath: server.basePath, data: data)
    }

    func reply() throws -> APIReply {
        switch request.operation.id {
        case "GetAccount": return account()
        case "ListProjects": return listProjects()
        case "GetProject": return try getProject()
        case "CreateProject": return try createProject()
        case "UpdateProject": return try updateProject()
        case "TrashProject": return try setProjectStatus("trashed")
        case "ArchiveProject": return try setProjectStatus("archived")
        case "UnarchiveProject": return try setProjectStatus("active")
        case "ListPeople": return listPeople { _ in true }
        case "ListPingablePeople": return listPeople { !$0.isClient }
        case "ListProjectPeople": return try listProjectPeople()
        case "GetPerson": return try getPerson(id("personId"))
        case "GetMyProfile": return try getPerson(store.snapshot().meID)
        case "GetTodoset": return try getTodoset()
        case "ListTodolists": return try listTodolists()
        case "GetTodolistOrGroup": return try getTodolist()
        case "CreateTodolist": return try createTodolist()
        case "UpdateTodolistOrGroup": return try updateTodolist()
        case "ListTodos": return try listTodos()
        case "GetTodo": return try getTodo()
        case "CreateTodo": return try createTodo()
        case "ReplaceTodo": return try replaceTodo()
        case "CompleteTodo": return try setCompleted(true)
        case "UncompleteTodo": return try setCompleted(false)
        case "RepositionTodo": return try repositionTodo()
        case "TrashRecording": return try setRecordingStatus("trashed")
        case "ArchiveRecording": return try setRecordingStatus("archived")
        case "UnarchiveRecording": return try setRecordingStatus("active")
        case "GetMessageBoard": return try getMessageBoard()
        case "ListMessages": return try listMessages()
        case "GetMessage": return try getMessage()
        case "CreateMessage": return try createMessage()
        case "UpdateMessage": return try updateMessage()
        case "ListComments": return try listComments()
        case "GetComment": return try getComment()
        case "CreateComment": return try createComment()
        case "UpdateComment": return try updateComment()
        default: return try example()
        }
    }

    // MARK: Every other operation

    /// The Spec's example with the operation's success status, after the checks a real server
    /// would make on the body.
    func example() throws -> APIReply {
        let operation = request.operation
        switch operation.bodyKind {
        case .json?:
            let members = try request.jsonObject()
            for field in BasecampExamples.requiredFields(schema: operation.bodySchema ?? "")
            where Self.isBlank(members[field]) {
                throw APIFailure.invalid(field, "can't be blank")
            }
        case .octetStream?, .multipart?:
            guard !request.body.isEmpty else { throw APIFailure(400, "The request needs a file body.") }
        case nil:
            break
        }
        guard let schema = operation.responseSchema else { return .empty(status: operation.successStatus) }
        if schema.hasPrefix("[") {
            let item = Templates.parsed(String(schema.dropFirst().dropLast()))
            return operation.isPaginated ? .list([item]) : .json([item], status: operation.successStatus)
        }
        var value = Templates.parsed(schema)
        // A fetched record carries the id it was asked for, which makes the examples read naturally.
        if operation.method == .get, let last = operation.pathParameters.last, last.name != "accountId",
            last.kind == .integer, let id = request.integer(last.name), value["id"] != nil
        {
            value = value.merging(["id": .integer(id)])
        }
        return .json(value, status: operation.successStatus)
    }

    // MARK: Account, projects and people

    private func account() -> APIReply {
        let data = store.snapshot()
        let value = Templates.parsed("Account").merging([
            "id": .integer(data.accountID), "name": .string(data.accountName), "active": true,
        ])
        return .json(value, status: 200)
    }

    private func listProjects() -> APIReply {
        let data = store.snapshot()
        let status = request.queryValue("status") ?? "active"
        let render = renderer(data)
        return .list(data.projects.filter { $0.status == status }.map(render.project))
    }

    private func getProject() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("projectId")
        guard let project = data.project(id) else { throw APIFailure.notFound("Project \(id)") }
        return .json(renderer(data).project(project), status: 200)
    }

    private func createProject() throws -> APIReply {
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        let description = body["description"]?.stringValue ?? ""
        let now = Self.now()
        let (data, id) = try store.update { data -> (AccountData, Int) in
            let id = data.makeID()
            let todoset = data.makeID()
            let board = data.makeID()
            data.projects.append(
                ProjectRecord(
                    id: id,
                    name: name,
                    description: description,
                    todosetID: todoset,
                    messageBoardID: board,
                    peopleIDs: [data.meID],
                    createdAt: now,
                    updatedAt: now
                )
            )
            data.todosets.append(TodosetRecord(id: todoset, projectID: id, createdAt: now))
            data.messageBoards.append(MessageBoardRecord(id: board, projectID: id, createdAt: now))
            return (data, id)
        }
        guard let project = data.project(id) else { throw APIFailure(500, "The project was not stored.") }
        return .json(renderer(data).project(project), status: 201)
    }

    private func updateProject() throws -> APIReply {
        let id = try id("projectId")
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            guard let index = data.projects.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("Project \(id)")
            }
            data.projects[index].name = name
            if let description = body["description"]?.stringValue { data.projects[index].description = description }
            data.projects[index].updatedAt = now
            return data
        }
        guard let project = data.project(id) else { throw APIFailure.notFound("Project \(id)") }
        return .json(renderer(data).project(project), status: 200)
    }

    private func setProjectStatus(_ status: String) throws -> APIReply {
        let id = try id("projectId")
        let now = Self.now()
        try store.update { data in
            guard let index = data.projects.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("Project \(id)")
            }
            data.projects[index].status = status
            data.projects[index].updatedAt = now
        }
        return .empty(status: request.operation.successStatus)
    }

    private func listPeople(_ include: (PersonRecord) -> Bool) -> APIReply {
        let data = store.snapshot()
        let render = renderer(data)
        return .list(data.people.filter(include).map { render.person($0.id) })
    }

    private func listProjectPeople() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("projectId")
        guard let project = data.project(id) else { throw APIFailure.notFound("Project \(id)") }
        let render = renderer(data)
        return .list(project.peopleIDs.map(render.person))
    }

    private func getPerson(_ id: Int) throws -> APIReply {
        let data = store.snapshot()
        guard data.person(id) != nil else { throw APIFailure.notFound("Person \(id)") }
        return .json(renderer(data).person(id), status: 200)
    }

    // MARK: To-do sets and lists

    private func getTodoset() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("todosetId")
        guard let todoset = data.todoset(id) else { throw APIFailure.notFound("To-do set \(id)") }
        return .json(renderer(data).todoset(todoset), status: 200)
    }

    private func listTodolists() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("todosetId")
        guard data.todoset(id) != nil else { throw APIFailure.notFound("To-do set \(id)") }
        let status = request.queryValue("status") ?? "active"
        let render = renderer(data)
        return .list(data.todolists.filter { $0.todosetID == id && $0.status == status }.map(render.todolist))
    }

    private func getTodolist() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("id")
        guard let list = data.todolist(id) else { throw APIFailure.notFound("To-do list \(id)") }
        return .json(renderer(data).todolist(list), status: 200)
    }

    private func createTodolist() throws -> APIReply {
        let todosetID = try id("todosetId")
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        let now = Self.now()
        let (data, id) = try store.update { data -> (AccountData, Int) in
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
            return (data, id)
        }
        guard let list = data.todolist(id) else { throw APIFailure(500, "The list was not stored.") }
        return .json(renderer(data).todolist(list), status: 201)
    }

    /// A full replace, as the Spec says: a description left out is cleared.
    private func updateTodolist() throws -> APIReply {
        let id = try id("id")
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            guard let index = data.todolists.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("To-do list \(id)")
            }
            data.todolists[index].name = name
            data.todolists[index].description = body["description"]?.stringValue ?? ""
            data.todolists[index].updatedAt = now
            return data
        }
        guard let list = data.todolist(id) else { throw APIFailure.notFound("To-do list \(id)") }
        return .json(renderer(data).todolist(list), status: 200)
    }

    // MARK: To-dos

    /// Open to-dos by default; `completed=true` lists the completed ones and `status` picks
    /// archived or trashed ones, as Basecamp does.
    private func listTodos() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("todolistId")
        guard data.todolist(id) != nil else { throw APIFailure.notFound("To-do list \(id)") }
        let status = request.queryValue("status") ?? "active"
        let completed = request.queryValue("completed") == "true"
        let render = renderer(data)
        let todos = data.todos.filter { $0.todolistID == id && $0.status == status && $0.completed == completed }
        return .list(todos.map(render.todo))
    }

    private func getTodo() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("todoId")
        guard let todo = data.todo(id) else { throw APIFailure.notFound("To-do \(id)") }
        return .json(renderer(data).todo(todo), status: 200)
    }

    /// The to-do fields of a create or replace body, checked as Basecamp checks them.
    private struct TodoFields {
        var content: String
        var description: String
        var assigneeIDs: [Int]
        var subscriberIDs: [Int]
        var dueOn: String?
        var startsOn: String?
    }

    private func todoFields(_ body: [String: JSONValue], data: AccountData) throws -> TodoFields {
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

    private func createTodo() throws -> APIReply {
        let listID = try id("todolistId")
        let body = try request.jsonObject()
        let now = Self.now()
        let (data, id) = try store.update { data -> (AccountData, Int) in
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
            return (data, id)
        }
        guard let todo = data.todo(id) else { throw APIFailure(500, "The to-do was not stored.") }
        return .json(renderer(data).todo(todo), status: 201)
    }

    /// A full replace: fields left out (description, assignees, dates) are cleared.
    private func replaceTodo() throws -> APIReply {
        let id = try id("todoId")
        let body = try request.jsonObject()
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            guard let index = data.todos.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("To-do \(id)")
            }
            let fields = try todoFields(body, data: data)
            data.todos[index].content = fields.content
            data.todos[index].description = fields.description
            data.todos[index].assigneeIDs = fields.assigneeIDs
            data.todos[index].completionSubscriberIDs = fields.subscriberIDs
            data.todos[index].dueOn = fields.dueOn
            data.todos[index].startsOn = fields.startsOn
            data.todos[index].updatedAt = now
            return data
        }
        guard let todo = data.todo(id) else { throw APIFailure.notFound("To-do \(id)") }
        return .json(renderer(data).todo(todo), status: 200)
    }

    private func setCompleted(_ completed: Bool) throws -> APIReply {
        let id = try id("todoId")
        let now = Self.now()
        try store.update { data in
            guard let index = data.todos.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("To-do \(id)")
            }
            data.todos[index].completed = completed
            data.todos[index].updatedAt = now
        }
        return .empty(status: request.operation.successStatus)
    }

    /// Moves a to-do to `position` (1-based) in its list, or in the list `parent_id` names.
    private func repositionTodo() throws -> APIReply {
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

    private func setRecordingStatus(_ status: String) throws -> APIReply {
        let id = try id("recordingId")
        let now = Self.now()
        try store.update { data in
            switch data.recording(id) {
            case .todo?:
                if let index = data.todos.firstIndex(where: { $0.id == id }) {
                    data.todos[index].status = status
                    data.todos[index].updatedAt = now
                }
            case .todolist?:
                if let index = data.todolists.firstIndex(where: { $0.id == id }) {
                    data.todolists[index].status = status
                    data.todolists[index].updatedAt = now
                }
            case .message?:
                if let index = data.messages.firstIndex(where: { $0.id == id }) {
                    data.messages[index].status = status
                    data.messages[index].updatedAt = now
                }
            case .comment?:
                if let index = data.comments.firstIndex(where: { $0.id == id }) {
                    data.comments[index].status = status
                    data.comments[index].updatedAt = now
                }
            case nil:
                throw APIFailure.notFound("Recording \(id)")
            }
        }
        return .empty(status: request.operation.successStatus)
    }

    // MARK: Messages and comments

    private func getMessageBoard() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("boardId")
        guard let board = data.messageBoard(id) else { throw APIFailure.notFound("Message board \(id)") }
        return .json(renderer(data).messageBoard(board), status: 200)
    }

    /// Newest first, as on the board.
    private func listMessages() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("boardId")
        guard data.messageBoard(id) != nil else { throw APIFailure.notFound("Message board \(id)") }
        let render = renderer(data)
        let messages = data.messages.filter { $0.boardID == id && $0.status == "active" }
            .sorted { $0.createdAt > $1.createdAt }
        return .list(messages.map(render.message))
    }

    private func getMessage() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("messageId")
        guard let message = data.message(id) else { throw APIFailure.notFound("Message \(id)") }
        return .json(renderer(data).message(message), status: 200)
    }

    private func createMessage() throws -> APIReply {
        let boardID = try id("boardId")
        let body = try request.jsonObject()
        let subject = try requiredText(body, "subject")
        let now = Self.now()
        let (data, id) = try store.update { data -> (AccountData, Int) in
            guard let board = data.messageBoard(boardID) else { throw APIFailure.notFound("Message board \(boardID)") }
            let id = data.makeID()
            data.messages.append(
                MessageRecord(
                    id: id,
                    projectID: board.projectID,
                    boardID: boardID,
                    subject: subject,
                    content: body["content"]?.stringValue ?? "",
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return (data, id)
        }
        guard let message = data.message(id) else { throw APIFailure(500, "The message was not stored.") }
        return .json(renderer(data).message(message), status: 201)
    }

    private func updateMessage() throws -> APIReply {
        let id = try id("messageId")
        let body = try request.jsonObject()
        if body["subject"] != nil { _ = try requiredText(body, "subject") }
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            guard let index = data.messages.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("Message \(id)")
            }
            if let subject = body["subject"]?.stringValue { data.messages[index].subject = subject }
            if let content = body["content"]?.stringValue { data.messages[index].content = content }
            data.messages[index].updatedAt = now
            return data
        }
        guard let message = data.message(id) else { throw APIFailure.notFound("Message \(id)") }
        return .json(renderer(data).message(message), status: 200)
    }

    /// Oldest first, as in a thread.
    private func listComments() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("recordingId")
        guard data.recording(id) != nil else { throw APIFailure.notFound("Recording \(id)") }
        let render = renderer(data)
        return .list(data.comments.filter { $0.recordingID == id && $0.status == "active" }.map(render.comment))
    }

    private func getComment() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("commentId")
        guard let comment = data.comment(id) else { throw APIFailure.notFound("Comment \(id)") }
        return .json(renderer(data).comment(comment), status: 200)
    }

    private func createComment() throws -> APIReply {
        let recordingID = try id("recordingId")
        let body = try request.jsonObject()
        let content = try requiredText(body, "content")
        let now = Self.now()
        let (data, id) = try store.update { data -> (AccountData, Int) in
            let project: Int?
            switch data.recording(recordingID) {
            case .todo?: project = data.todo(recordingID)?.projectID
            case .todolist?: project = data.todolist(recordingID)?.projectID
            case .message?: project = data.message(recordingID)?.projectID
            case .comment?: project = data.comment(recordingID)?.projectID
            case nil: project = nil
            }
            guard let project else { throw APIFailure.notFound("Recording \(recordingID)") }
            let id = data.makeID()
            data.comments.append(
                CommentRecord(
                    id: id,
                    projectID: project,
                    recordingID: recordingID,
                    content: content,
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return (data, id)
        }
        guard let comment = data.comment(id) else { throw APIFailure(500, "The comment was not stored.") }
        return .json(renderer(data).comment(comment), status: 201)
    }

    private func updateComment() throws -> APIReply {
        let id = try id("commentId")
        let body = try request.jsonObject()
        let content = try requiredText(body, "content")
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            guard let index = data.comments.firstIndex(where: { $0.id == id }) else {
                throw APIFailure.notFound("Comment \(id)")
            }
            data.comments[index].content = content
            data.comments[index].updatedAt = now
            return data
        }
        guard let comment = data.comment(id) else { throw APIFailure.notFound("Comment \(id)") }
        return .json(renderer(data).comment(comment), status: 200)
    }

    // MARK: Checks

    private func id(_ name: String) throws -> Int {
        guard let value = request.integer(name) else { throw APIFailure(404, "No record \(name).") }
        return value
    }

    private func requiredText(_ body: [String: JSONValue], _ field: String) throws -> String {
        guard let value = body[field], !Self.isBlank(value) else { throw APIFailure.invalid(field, "can't be blank") }
        guard let text = value.stringValue else { throw APIFailure.invalid(field, "must be text") }
        return text
    }

    private func date(_ body: [String: JSONValue], _ field: String) throws -> String? {
        guard let value = body[field], value != .null else { return nil }
        guard let text = value.stringValue, Self.isCalendarDate(text) else {
            throw APIFailure.invalid(field, "must be a date like 2026-02-06")
        }
        return text
    }

    private func people(_ body: [String: JSONValue], _ field: String, data: AccountData) throws -> [Int] {
        guard let value = body[field], value != .null else { return [] }
        guard let items = value.arrayValue else { throw APIFailure.invalid(field, "must be a list of person ids") }
        var ids: [Int] = []
        for item in items {
            guard let id = item.intValue, data.person(id) != nil else {
                throw APIFailure.invalid(field, "names someone who is not on this account")
            }
            ids.append(id)
        }
        return ids
    }

    static func isBlank(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return true
        case .string(let text)?: return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        default: return false
        }
    }

    static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
