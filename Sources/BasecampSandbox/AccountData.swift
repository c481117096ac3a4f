/// The records the sandbox keeps for the resources people try first, in plain Codable form so
/// the whole account can be written to (and read back from) a state file.
///
/// Only facts live here; the JSON each record answers with is built from the Spec's example for
/// its schema (see `Rendering.swift`), so every member the SDK expects is always present.
struct AccountData: Codable, Sendable, Equatable {
    /// Bumped when the layout changes, so a state file of another layout is refused.
    static let currentVersion = 1

    var version = AccountData.currentVersion
    var accountID: Int
    var accountName: String
    var meID: Int
    var nextID: Int
    var people: [PersonRecord] = []
    var projects: [ProjectRecord] = []
    var todosets: [TodosetRecord] = []
    var todolists: [TodolistRecord] = []
    var todos: [TodoRecord] = []
    var messageBoards: [MessageBoardRecord] = []
    var messages: [MessageRecord] = []
    var comments: [CommentRecord] = []
    /// Vaults, uploads and attachments; absent from state files written before files existed.
    var files: FileRecords?
    /// Optional so state files written before webhooks were kept still load; read through `hooks`.
    var webhooks: [WebhookRecord]?
    /// Card tables, schedules, Campfire, check-ins, message types, boosts, events, bookmarks and
    /// subscriptions; absent from older state files, read through `keptRecords`.
    var kept: KeptRecords?

    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    func person(_ id: Int) -> PersonRecord? { people.first { $0.id == id } }
    func project(_ id: Int) -> ProjectRecord? { projects.first { $0.id == id } }
    func todoset(_ id: Int) -> TodosetRecord? { todosets.first { $0.id == id } }
    func todolist(_ id: Int) -> TodolistRecord? { todolists.first { $0.id == id } }
    func todo(_ id: Int) -> TodoRecord? { todos.first { $0.id == id } }
    func messageBoard(_ id: Int) -> MessageBoardRecord? { messageBoards.first { $0.id == id } }
    func message(_ id: Int) -> MessageRecord? { messages.first { $0.id == id } }
    func comment(_ id: Int) -> CommentRecord? { comments.first { $0.id == id } }

    /// Applies `change` to the record `id` in `records` and stamps it with `now`, as Basecamp
    /// stamps every edit; `not_found` naming `noun` when there is no such record.
    mutating func change<Record: ChangeableRecord>(
        _ records: WritableKeyPath<AccountData, [Record]>,
        _ id: Int,
        noun: String,
        at now: String,
        _ change: (inout Record) throws -> Void
    ) throws {
        guard let index = self[keyPath: records].firstIndex(where: { $0.id == id }) else {
            throw APIFailure.notFound("\(noun) \(id)")
        }
        try change(&self[keyPath: records][index])
        self[keyPath: records][index].updatedAt = now
    }
}

/// A record that is edited in place and carries the time of its last edit.
protocol ChangeableRecord {
    var id: Int { get }
    var updatedAt: String { get set }
}

struct PersonRecord: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var email: String
    var title: String
    var isAdmin = false
    var isOwner = false
    var isClient = false
    var companyID: Int
    var companyName: String
    var createdAt: String
}

struct ProjectRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var name: String
    var description: String
    var status = "active"
    var todosetID: Int
    var messageBoardID: Int
    var peopleIDs: [Int]
    var createdAt: String
    var updatedAt: String
}

struct TodosetRecord: Codable, Sendable, Equatable {
    var id: Int
    var projectID: Int
    var createdAt: String
}

struct TodolistRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    var todosetID: Int
    var name: String
    var description: String
    var status = "active"
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}

struct TodoRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    var todolistID: Int
    var content: String
    var description = ""
    var status = "active"
    var completed = false
    var dueOn: String?
    var startsOn: String?
    var assigneeIDs: [Int] = []
    var completionSubscriberIDs: [Int] = []
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}

struct MessageBoardRecord: Codable, Sendable, Equatable {
    var id: Int
    var projectID: Int
    var createdAt: String
}

struct MessageRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    var boardID: Int
    var subject: String
    var content: String
    var status = "active"
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}

struct CommentRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    var recordingID: Int
    var content: String
    var status = "active"
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}
