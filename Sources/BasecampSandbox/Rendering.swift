import Foundation
import HTTPCore

/// Builds the JSON of stored records from the Spec's example for each schema: the example
/// supplies every member the SDK expects, the record overwrites the facts.
struct Renderer {
    /// Where links point: `url`s at this sandbox (the same paths the SDK calls), `app_url`s at a
    /// made-up web app.
    let apiBase: String
    let appBase: String
    let data: AccountData
    /// Each person's JSON, built once: every record names its creator and often more people.
    private let people: [Int: JSONValue]

    init(origin: String, basePath: String, data: AccountData) {
        self.apiBase = origin + basePath + "/\(data.accountID)"
        self.appBase = "https://3.basecamp.com/\(data.accountID)"
        self.data = data
        self.people = Dictionary(data.people.map { ($0.id, Self.person($0)) }, uniquingKeysWith: { first, _ in first })
    }

    func api(_ path: String) -> JSONValue { .string(apiBase + path) }
    func app(_ path: String) -> JSONValue { .string(appBase + path) }

    // MARK: People and projects

    func person(_ id: Int) -> JSONValue {
        people[id] ?? .null
    }

    private static func person(_ person: PersonRecord) -> JSONValue {
        Templates.person.merging([
            "id": .integer(person.id),
            "name": .string(person.name),
            "email_address": .string(person.email),
            "title": .string(person.title),
            "personable_type": .string(person.isClient ? "Client" : "User"),
            "admin": .bool(person.isAdmin),
            "owner": .bool(person.isOwner),
            "client": .bool(person.isClient),
            "employee": .bool(!person.isClient),
            "created_at": .string(person.createdAt),
            "updated_at": .string(person.createdAt),
            "company": ["id": .integer(person.companyID), "name": .string(person.companyName)],
            "can_manage_projects": .bool(person.isAdmin),
            "can_manage_people": .bool(person.isAdmin),
            "can_ping": .bool(!person.isClient),
        ])
    }

    func project(_ project: ProjectRecord) -> JSONValue {
        let board = "/message_boards/\(project.messageBoardID)"
        let todoset = "/todosets/\(project.todosetID)"
        let fixed: [JSONValue] = [
            [
                "id": .integer(project.messageBoardID), "title": "Message Board", "name": "message_board",
                "enabled": true, "position": 1, "url": api(board), "app_url": app(board),
            ],
            [
                "id": .integer(project.todosetID), "title": "To-dos", "name": "todoset", "enabled": true,
                "position": 2, "url": api(todoset), "app_url": app(todoset),
            ],
            vaultDockItem(project),
        ]
        let tools = ProjectTool.allCases.enumerated().map { toolDockItem($1, projectID: project.id, position: $0 + 4) }
        let dock = JSONValue.array(fixed + tools)
        return Templates.project.merging([
            "id": .integer(project.id),
            "status": .string(project.status),
            "name": .string(project.name),
            "description": .string(project.description),
            "created_at": .string(project.createdAt),
            "updated_at": .string(project.updatedAt),
            "url": api("/projects/\(project.id)"),
            "app_url": app("/projects/\(project.id)"),
            "bookmark_url": api("/recordings/\(project.id)/bookmark.json"),
            "dock": dock,
        ])
    }

    func bucket(_ projectID: Int) -> JSONValue {
        ["id": .integer(projectID), "name": .string(data.project(projectID)?.name ?? ""), "type": "Project"]
    }

    /// Members every kept recording shares, from its own facts.
    func recording(_ record: some RecordingFacts, type: String, path: String, title: String) -> [String: JSONValue] {
        recording(
            id: record.id,
            type: type,
            path: path,
            status: record.status,
            title: title,
            projectID: record.projectID,
            creatorID: record.creatorID,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt
        )
    }

    /// Members every recording (to-do, list, message, comment, tool) shares.
    func recording(
        id: Int,
        type: String,
        path: String,
        status: String,
        title: String,
        projectID: Int,
        creatorID: Int,
        createdAt: String,
        updatedAt: String
    ) -> [String: JSONValue] {
        [
            "id": .integer(id),
            "type": .string(type),
            "status": .string(status),
            "title": .string(title),
            "visible_to_clients": false,
            "inherits_status": true,
            "created_at": .string(createdAt),
            "updated_at": .string(updatedAt),
            "url": api(path),
            "app_url": app(path),
            "bookmark_url": api("/recordings/\(id)/bookmark.json"),
            "subscription_url": api("/recordings/\(id)/subscription.json"),
            "comments_url": api("/recordings/\(id)/comments.json"),
            "comments_count": .integer(data.comments.count { $0.recordingID == id && $0.status == "active" }),
            "boosts_count": 0,
            "boosts_url": api("/recordings/\(id)/boosts.json"),
            "bucket": bucket(projectID),
            "creator": person(creatorID),
        ]
    }

    // MARK: To-dos

    func todoset(_ todoset: TodosetRecord) -> JSONValue {
        let lists = data.todolists.filter { $0.todosetID == todoset.id && $0.status == "active" }
        let todos = data.todos.filter { todo in lists.contains { $0.id == todo.todolistID } && todo.status == "active" }
        let done = todos.filter(\.completed).count
        var members = recording(
            id: todoset.id,
            type: "Todoset",
            path: "/todosets/\(todoset.id)",
            status: "active",
            title: "To-dos",
            projectID: todoset.projectID,
            creatorID: data.meID,
            createdAt: todoset.createdAt,
            updatedAt: todoset.createdAt
        )
        members["name"] = "todoset"
        members["position"] = 2
        members["todolists_count"] = .integer(lists.count)
        members["todolists_url"] = api("/todosets/\(todoset.id)/todolists.json")
        members["app_todolists_url"] = app("/todosets/\(todoset.id)/todolists")
        members["todos_count"] = .integer(todos.count)
        members["completed_ratio"] = .string("\(done)/\(todos.count)")
        members["completed"] = .bool(!todos.isEmpty && done == todos.count)
        members["completed_loose_todos_count"] = 0
        members["todos_url"] = api("/todosets/\(todoset.id)/todos.json")
        members["app_todos_url"] = app("/todosets/\(todoset.id)/todos")
        return Templates.todoset.merging(members)
    }

    func todolist(_ list: TodolistRecord) -> JSONValue {
        let total = data.todos.count { $0.todolistID == list.id && $0.status == "active" }
        let done = data.todos.count { $0.todolistID == list.id && $0.status == "active" && $0.completed }
        let position = data.todolists.position(of: list.id) { $0.todosetID == list.todosetID }
        var members = recording(list, type: "Todolist", path: "/todolists/\(list.id)", title: list.name)
        members["name"] = .string(list.name)
        members["description"] = .string(list.description)
        members["completed"] = .bool(total > 0 && done == total)
        members["completed_ratio"] = .string("\(done)/\(total)")
        members["position"] = .integer(position)
        members["parent"] = [
            "id": .integer(list.todosetID), "title": "To-dos", "type": "Todoset",
            "url": api("/todosets/\(list.todosetID)"), "app_url": app("/todosets/\(list.todosetID)"),
        ]
        members["todos_url"] = api("/todolists/\(list.id)/todos.json")
        members["app_todos_url"] = app("/todolists/\(list.id)/todos")
        members["groups_url"] = api("/todolists/\(list.id)/groups.json")
        members["bubble_up_url"] = api("/recordings/\(list.id)/subscription.json")
        return Templates.todolist.merging(members)
    }

    func todo(_ todo: TodoRecord) -> JSONValue {
        let list = data.todolist(todo.todolistID)
        let position = data.todos.position(of: todo.id) { $0.todolistID == todo.todolistID }
        var members = recording(todo, type: "Todo", path: "/todos/\(todo.id)", title: todo.content)
        members["content"] = .string(todo.content)
        members["description"] = .string(todo.description)
        members["completed"] = .bool(todo.completed)
        members["due_on"] = todo.dueOn.map(JSONValue.string) ?? .null
        members["starts_on"] = todo.startsOn.map(JSONValue.string) ?? .null
        members["position"] = .integer(position)
        members["assignees"] = .array(todo.assigneeIDs.map(person))
        members["completion_subscribers"] = .array(todo.completionSubscriberIDs.map(person))
        members["completion_url"] = api("/todos/\(todo.id)/completion.json")
        members["parent"] = [
            "id": .integer(todo.todolistID), "title": .string(list?.name ?? ""), "type": "Todolist",
            "url": api("/todolists/\(todo.todolistID)"), "app_url": app("/todolists/\(todo.todolistID)"),
        ]
        members["description_attachments"] = []
        members["steps"] = []
        return Templates.todo.merging(members)
    }

    // MARK: Messages and comments

    func messageBoard(_ board: MessageBoardRecord) -> JSONValue {
        var members = recording(
            id: board.id,
            type: "Message::Board",
            path: "/message_boards/\(board.id)",
            status: "active",
            title: "Message Board",
            projectID: board.projectID,
            creatorID: data.meID,
            createdAt: board.createdAt,
            updatedAt: board.createdAt
        )
        members["position"] = 1
        members["messages_count"] = .integer(
            data.messages.count { $0.boardID == board.id && $0.status == "active" }
        )
        members["messages_url"] = api("/message_boards/\(board.id)/messages.json")
        members["app_messages_url"] = app("/message_boards/\(board.id)/messages")
        return Templates.messageBoard.merging(members)
    }

    func message(_ message: MessageRecord) -> JSONValue {
        var members = recording(message, type: "Message", path: "/messages/\(message.id)", title: message.subject)
        members["subject"] = .string(message.subject)
        members["content"] = .string(message.content)
        members["content_attachments"] = []
        members["parent"] = [
            "id": .integer(message.boardID), "title": "Message Board", "type": "Message::Board",
            "url": api("/message_boards/\(message.boardID)"), "app_url": app("/message_boards/\(message.boardID)"),
            "bucket": bucket(message.projectID),
        ]
        return Templates.message.merging(members)
    }

    func comment(_ comment: CommentRecord) -> JSONValue {
        let parent = parentSummary(comment.recordingID)
        var members = recording(comment, type: "Comment", path: "/comments/\(comment.id)", title: "Re: " + parent.title)
        members.removeValue(forKey: "comments_url")
        members.removeValue(forKey: "comments_count")
        members.removeValue(forKey: "subscription_url")
        members["content"] = .string(comment.content)
        members["content_attachments"] = []
        members["parent"] = [
            "id": .integer(comment.recordingID), "title": .string(parent.title), "type": .string(parent.type),
            "url": api(parent.path), "app_url": app(parent.path), "bucket": bucket(comment.projectID),
        ]
        return Templates.comment.merging(members)
    }

    private func parentSummary(_ id: Int) -> (title: String, type: String, path: String) {
        guard let parent = data.recordingSource(id) else { return ("", "Recording", "/recordings/\(id)") }
        return (parent.title, parent.type, parent.path)
    }
}

/// The Spec's examples, parsed once.
enum Templates {
    static let person = parsed("Person")
    static let project = parsed("Project")
    static let todoset = parsed("Todoset")
    static let todolist = parsed("Todolist")
    static let todo = parsed("Todo")
    static let messageBoard = parsed("MessageBoard")
    static let message = parsed("Message")
    static let comment = parsed("Comment")

    /// The example for `schema` as JSON; `.null` when the Spec has none, which a test catches.
    static func parsed(_ schema: String) -> JSONValue {
        guard let text = BasecampExamples.json(schema: schema) else { return .null }
        return (try? JSONValue(parsing: Data(text.utf8))) ?? .null
    }
}

extension JSONValue {
    /// The object with `members` set (added or replaced); any other value is returned as it is.
    func merging(_ members: [String: JSONValue]) -> JSONValue {
        guard case .object(var current) = self else { return .object(members) }
        for (key, value) in members { current[key] = value }
        return .object(current)
    }
}

extension Array where Element: RecordingFacts {
    /// Where the record `id` stands (from 1) among the records `isSibling` picks, without copying
    /// them: lists of thousands render a page at a time, and each item asks.
    func position(of id: Int, among isSibling: (Element) -> Bool) -> Int {
        var position = 1
        for index in indices {
            if self[index].id == id { return position }
            if isSibling(self[index]) { position += 1 }
        }
        return position
    }
}
