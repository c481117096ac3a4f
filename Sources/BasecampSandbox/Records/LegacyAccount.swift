import APISandbox
import HTTPCore

/// A state file of layout 1, written by sandboxes before every kept kind became a ``Record``:
/// typed arrays per kind, read loosely here and converted, so nothing a user kept is lost.
struct LegacyAccount: Decodable {
    static let version = 1

    struct Files: Decodable {
        var vaults: [[String: JSONValue]]
        var uploads: [[String: JSONValue]]
        var attachments: [AttachmentRecord]
        var documents: [[String: JSONValue]]?
    }

    /// Layout 1 kept cards, schedule entries and the other later kinds in today's shape already.
    struct Kept: Decodable {
        var recordings: [Record]
        var events: [EventRecord]
        var bookmarks: [BookmarkRecord]
        var subscriptions: [SubscriptionRecord]
    }

    var accountID: Int
    var accountName: String
    var meID: Int
    var nextID: Int
    var people: [PersonRecord]
    var projects: [[String: JSONValue]]
    var todosets: [[String: JSONValue]]
    var todolists: [[String: JSONValue]]
    var todos: [[String: JSONValue]]
    var messageBoards: [[String: JSONValue]]
    var messages: [[String: JSONValue]]
    var comments: [[String: JSONValue]]
    var files: Files?
    var webhooks: [[String: JSONValue]]?
    var kept: Kept?

    /// The account in today's layout.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` naming `file` when a record lacks its id,
    ///   project or times.
    func converted(in file: SandboxStateFile) throws -> AccountData {
        var data = AccountData(accountID: accountID, accountName: accountName, meID: meID, nextID: nextID)
        data.people = people
        for project in projects {
            let record = try record(
                project,
                .project,
                in: nil,
                ["name": "name", "description": "description", "peopleIDs": "people_ids"],
                file
            )
            data.records.append(record)
            let ids = [
                RecordKind.todoset: project["todosetID"]?.intValue, .messageBoard: project["messageBoardID"]?.intValue,
            ]
            data.addDock(to: record.id, at: record.createdAt, ids: ids.compactMapValues { $0 })
        }
        let vaults = files?.vaults ?? []
        let converted: [[Record]] = [
            try todolists.map {
                try record($0, .todolist, in: "todosetID", ["name": "name", "description": "description"], file)
            },
            try todos.map {
                try record(
                    $0,
                    .todo,
                    in: "todolistID",
                    [
                        "content": "content", "description": "description", "completed": "completed", "dueOn": "due_on",
                        "startsOn": "starts_on", "assigneeIDs": "assignee_ids",
                        "completionSubscriberIDs": "completion_subscriber_ids",
                    ],
                    file
                )
            },
            try messages.map {
                try record($0, .message, in: "boardID", ["subject": "subject", "content": "content"], file)
            },
            try comments.map { try record($0, .comment, in: "recordingID", ["content": "content"], file) },
            try vaults.map { try record($0, .vault, in: "parentID", ["title": "title"], file) },
            try (files?.documents ?? []).map {
                try record($0, .document, in: "vaultID", ["title": "title", "content": "content"], file)
            },
            try (files?.uploads ?? []).map {
                try record(
                    $0,
                    .upload,
                    in: "vaultID",
                    [
                        "filename": "filename", "description": "description", "sgid": "attachable_sgid",
                        "versions": "versions",
                    ],
                    file
                )
            },
            kept?.recordings ?? [],
            try (webhooks ?? []).map { try webhook($0, file) },
        ]
        for record in converted.joined() {
            // A root vault was stored once renamed; it replaces the one the dock gave its project.
            data.records.removeAll { $0.id == record.id }
            data.records.append(record)
        }
        data.attachments = files?.attachments ?? []
        data.events = kept?.events ?? []
        data.bookmarks = kept?.bookmarks ?? []
        data.subscriptions = kept?.subscriptions ?? []
        return data
    }

    /// A layout-1 record as a ``Record``: `members` maps its keys to today's member names; without
    /// a `parent` key (or a value for it) the project holds it.
    private func record(
        _ object: [String: JSONValue],
        _ kind: RecordKind,
        in parent: String?,
        _ members: [String: String],
        _ file: SandboxStateFile
    ) throws -> Record {
        guard let id = object["id"]?.intValue, let created = object["createdAt"]?.stringValue,
            let projectID = object["projectID"]?.intValue ?? (kind == .project ? id : nil)
        else { throw file.failure(.notValid, "a \(kind.noun.lowercased()) of layout 1 lacks its id, project or time") }
        var fields: [String: JSONValue] = [:]
        for (old, new) in members where object[old] != nil && object[old] != .null {
            fields[new] = object[old]
        }
        return Record(
            id: id,
            kind: kind,
            projectID: projectID,
            parentID: parent.flatMap { object[$0]?.intValue } ?? projectID,
            status: object["status"]?.stringValue ?? "active",
            fields: fields,
            creatorID: object["creatorID"]?.intValue ?? meID,
            createdAt: created,
            updatedAt: object["updatedAt"]?.stringValue ?? created
        )
    }

    /// A layout-1 webhook, its deliveries in the shape `recent_deliveries` answers with.
    private func webhook(_ object: [String: JSONValue], _ file: SandboxStateFile) throws -> Record {
        let members = ["payloadURL": "payload_url", "types": "types", "active": "active", "secret": "secret"]
        var record = try record(object, .webhook, in: nil, members, file)
        record.fields["recent_deliveries"] = .array(
            (object["deliveries"]?.arrayValue ?? []).map { delivery in
                WebhookDispatcher.delivery(
                    id: delivery["id"]?.intValue ?? 0,
                    at: delivery["createdAt"]?.stringValue ?? record.createdAt,
                    sent: delivery["requestHeaders"]?.objectValue ?? [:],
                    body: delivery["requestBody"]?.stringValue ?? "",
                    code: delivery["responseCode"]?.intValue,
                    message: delivery["responseMessage"]?.stringValue ?? "",
                    received: delivery["responseHeaders"]?.objectValue ?? [:]
                )
            }
        )
        return record
    }
}
