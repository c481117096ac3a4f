import Foundation
import HTTPCore

/// Answers one request: the stateful resources (projects, people, to-dos, messages, comments,
/// files, card tables, schedules, Campfire, check-ins, boosts, bookmarks, subscriptions, events,
/// search, webhooks) from the account's data, every other operation with the Spec's example for
/// its response. Changes to recordings are recorded as events and announced to webhooks.
struct Handlers {
    let server: BasecampServer
    let request: APIRequest

    var store: AccountStore { server.store }

    func renderer(_ data: AccountData) -> Renderer {
        Renderer(origin: request.origin, basePath: server.basePath, data: data)
    }

    /// The answer, after recording the event a change made.
    func reply() throws -> APIReply {
        let reply = try dispatch()
        recordEvent(after: reply)
        return reply
    }

    private func dispatch() throws -> APIReply {
        switch request.operation.id {
        case "GetAccount": return account()
        case "ListProjects": return listProjects()
        case "GetProject": return try fetched("projectId", "Project", AccountData.project, Renderer.project)
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
        case "GetTodoset": return try fetched("todosetId", "To-do set", AccountData.todoset, Renderer.todoset)
        case "ListTodolists": return try listTodolists()
        case "GetTodolistOrGroup": return try fetched("id", "To-do list", AccountData.todolist, Renderer.todolist)
        case "CreateTodolist": return try createTodolist()
        case "UpdateTodolistOrGroup": return try updateTodolist()
        case "ListTodos": return try listTodos()
        case "GetTodo": return try fetched("todoId", "To-do", AccountData.todo, Renderer.todo)
        case "CreateTodo": return try announcing("todo_created", createTodo())
        case "ReplaceTodo": return try announcing("todo_content_changed", replaceTodo())
        case "CompleteTodo": return try announcing("todo_completed", recording: id("todoId"), setCompleted(true))
        case "UncompleteTodo": return try announcing("todo_uncompleted", recording: id("todoId"), setCompleted(false))
        case "RepositionTodo": return try repositionTodo()
        case "TrashRecording": return try announcingStatus("trashed", setRecordingStatus("trashed"))
        case "ArchiveRecording": return try announcingStatus("archived", setRecordingStatus("archived"))
        case "UnarchiveRecording": return try announcingStatus("unarchived", setRecordingStatus("active"))
        case "GetMessageBoard":
            return try fetched("boardId", "Message board", AccountData.messageBoard, Renderer.messageBoard)
        case "ListMessages": return try listMessages()
        case "GetMessage": return try fetched("messageId", "Message", AccountData.message, Renderer.message)
        case "CreateMessage": return try announcing("message_created", createMessage())
        case "UpdateMessage": return try announcing("message_content_changed", updateMessage())
        case "ListComments": return try listComments()
        case "GetComment": return try fetched("commentId", "Comment", AccountData.comment, Renderer.comment)
        case "CreateComment": return try announcing("comment_created", createComment())
        case "UpdateComment": return try announcing("comment_content_changed", updateComment())
        case "ListWebhooks": return try listWebhooks()
        case "GetWebhook": return try getWebhook()
        case "CreateWebhook": return try createWebhook()
        case "UpdateWebhook": return try updateWebhook()
        case "DeleteWebhook": return try deleteWebhook()
        case "ListEvents": return try listEvents()
        case "GetProjectTimeline": return try projectTimeline()
        case "Search": return try search()
        case "ListRecordings": return try listRecordings()
        default: return try keptReply() ?? toolReply() ?? followingReply() ?? fileReply() ?? example()
        }
    }

    /// Answers with the record the path parameter `parameter` names; `not_found` naming `noun`
    /// when there is none.
    func fetched<Record>(
        _ parameter: String,
        _ noun: String,
        _ find: (AccountData) -> (Int) -> Record?,
        _ render: (Renderer) -> (Record) -> JSONValue
    ) throws -> APIReply {
        let data = store.snapshot()
        let id = try id(parameter)
        guard let record = find(data)(id) else { throw APIFailure.notFound("\(noun) \(id)") }
        return .json(render(renderer(data))(record), status: 200)
    }

    /// Adds a record with `insert`, which returns its id, and answers `201` with it as stored.
    func created<Record>(
        _ find: (AccountData) -> (Int) -> Record?,
        _ render: (Renderer) -> (Record) -> JSONValue,
        insert: (inout AccountData) throws -> Int
    ) throws -> APIReply {
        let (data, id) = try store.update { data -> (AccountData, Int) in
            let id = try insert(&data)
            return (data, id)
        }
        guard let record = find(data)(id) else { throw APIFailure(500, "The new record was not stored.") }
        return .json(render(renderer(data))(record), status: 201)
    }

    /// Answers with the records `select` picks from the parent the path parameter `parameter`
    /// names; `not_found` naming `noun` when there is no such parent.
    func listed<Parent, Record>(
        in parameter: String,
        _ noun: String,
        _ find: (AccountData) -> (Int) -> Parent?,
        _ render: (Renderer) -> (Record) -> JSONValue,
        select: (AccountData, Int) -> [Record]
    ) throws -> APIReply {
        let data = store.snapshot()
        let id = try id(parameter)
        guard find(data)(id) != nil else { throw APIFailure.notFound("\(noun) \(id)") }
        return .list(select(data, id), render(renderer(data)))
    }

    /// Edits the record `id` of `records` with `change` (which also sees the data as it was) and
    /// answers `200` with it as stored; `not_found` naming `noun` when there is none.
    func updated<Record: ChangeableRecord>(
        _ records: WritableKeyPath<AccountData, [Record]>,
        _ id: Int,
        noun: String,
        _ render: (Renderer) -> (Record) -> JSONValue,
        change: (inout Record, AccountData) throws -> Void
    ) throws -> APIReply {
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            let current = data
            try data.change(records, id, noun: noun, at: now) { try change(&$0, current) }
            return data
        }
        guard let record = data[keyPath: records].first(where: { $0.id == id }) else {
            throw APIFailure.notFound("\(noun) \(id)")
        }
        return .json(render(renderer(data))(record), status: 200)
    }

    // MARK: Every other operation

    /// The Spec's example with the operation's success status, after the checks a real server
    /// would make on the body.
    func example() throws -> APIReply {
        .example(try exampleBody())
    }

    private func exampleBody() throws -> APIReply {
        let operation = request.operation
        switch operation.bodyKind {
        case .json?:
            try requireFields(of: try request.jsonObject())
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

    // MARK: Checks

    /// The members the operation's body schema requires, none of them blank.
    ///
    /// - Throws: ``APIFailure`` 422 naming the first one missing.
    func requireFields(of body: [String: JSONValue]) throws {
        for field in BasecampExamples.requiredFields(schema: request.operation.bodySchema ?? "")
        where Self.isBlank(body[field]) {
            throw APIFailure.invalid(field, "can't be blank")
        }
    }

    func id(_ name: String) throws -> Int {
        guard let value = request.integer(name) else { throw APIFailure(404, "No record \(name).") }
        return value
    }

    func requiredText(_ body: [String: JSONValue], _ field: String) throws -> String {
        guard let value = body[field], !Self.isBlank(value) else { throw APIFailure.invalid(field, "can't be blank") }
        guard let text = value.stringValue else { throw APIFailure.invalid(field, "must be text") }
        return text
    }

    func date(_ body: [String: JSONValue], _ field: String) throws -> String? {
        guard let value = body[field], value != .null else { return nil }
        guard let text = value.stringValue, Self.isCalendarDate(text) else {
            throw APIFailure.invalid(field, "must be a date like 2026-02-06")
        }
        return text
    }

    func people(_ body: [String: JSONValue], _ field: String, data: AccountData) throws -> [Int] {
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
