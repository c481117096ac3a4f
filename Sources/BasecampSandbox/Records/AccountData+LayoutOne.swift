import APISandbox
import Foundation
import HTTPCore

/// State files of layout 1, written before every kept kind became a ``Record``: a typed list per
/// kind. They are read as JSON and converted, so nothing a user kept is lost.
extension AccountData {
    /// Each layout-1 list: where it is, the kind it holds, the member naming what holds each record
    /// (none: its project), and the members whose names changed.
    private static let layoutOneLists:
        [(path: [String], kind: RecordKind, parent: String?, renamed: [String: String])] =
            [
                (["projects"], .project, nil, ["peopleIDs": "people_ids"]),
                (["todolists"], .todolist, "todosetID", [:]),
                (
                    ["todos"], .todo, "todolistID",
                    [
                        "dueOn": "due_on", "startsOn": "starts_on", "assigneeIDs": "assignee_ids",
                        "completionSubscriberIDs": "completion_subscriber_ids",
                    ]
                ),
                (["messages"], .message, "boardID", [:]),
                (["comments"], .comment, "recordingID", [:]),
                (["files", "vaults"], .vault, "parentID", [:]),
                (["files", "documents"], .document, "vaultID", [:]),
                (["files", "uploads"], .upload, "vaultID", ["sgid": "attachable_sgid"]),
                (["webhooks"], .webhook, nil, ["payloadURL": "payload_url", "deliveries": "recent_deliveries"]),
            ]

    /// The account a layout-1 file holds, in today's layout.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` naming `file` when part of it is not what
    ///   layout 1 wrote.
    static func converting(layoutOne json: JSONValue, in file: SandboxStateFile) throws -> AccountData {
        func decoded<Value: Decodable>(_ value: JSONValue?, as type: Value.Type) throws -> Value {
            do {
                return try JSONDecoder().decode(type, from: (value ?? []).encoded())
            } catch {
                throw file.failure(.notValid, "part of its layout 1 does not read: \(error)")
            }
        }
        let me = json["meID"]?.intValue ?? 0
        var data = AccountData(
            accountID: json["accountID"]?.intValue ?? 0,
            accountName: json["accountName"]?.stringValue ?? "",
            meID: me,
            nextID: json["nextID"]?.intValue ?? 0
        )
        data.people = try decoded(json["people"], as: [PersonRecord].self)
        data.attachments = try decoded(json["files"]?["attachments"], as: [AttachmentRecord].self)
        data.events = try decoded(json["kept"]?["events"], as: [EventRecord].self)
        data.bookmarks = try decoded(json["kept"]?["bookmarks"], as: [BookmarkRecord].self)
        data.subscriptions = try decoded(json["kept"]?["subscriptions"], as: [SubscriptionRecord].self)
        let structural: Set = [
            "id", "projectID", "status", "creatorID", "createdAt", "updatedAt", "todosetID", "messageBoardID",
        ]
        for list in layoutOneLists {
            let objects = list.path.reduce(json as JSONValue?) { $0?[$1] }?.arrayValue ?? []
            for object in objects.compactMap(\.objectValue) {
                guard let id = object["id"]?.intValue, let created = object["createdAt"]?.stringValue else {
                    throw file.failure(.notValid, "a \(list.kind.noun.lowercased()) of layout 1 lacks its id or time")
                }
                var fields: [String: JSONValue] = [:]
                for (key, value) in object where !structural.contains(key) && key != list.parent && value != .null {
                    fields[list.renamed[key] ?? key] = value
                }
                let projectID = object["projectID"]?.intValue ?? id
                // A root vault was stored once renamed; it replaces the one its project's dock gave it.
                data.records.removeAll { $0.id == id }
                data.records.append(
                    Record(
                        id: id,
                        kind: list.kind,
                        projectID: projectID,
                        parentID: list.parent.flatMap { object[$0]?.intValue }
                            ?? (list.kind == .project ? 0 : projectID),
                        status: object["status"]?.stringValue ?? "active",
                        fields: list.kind == .webhook ? deliveries(in: fields) : fields,
                        creatorID: object["creatorID"]?.intValue ?? me,
                        createdAt: created,
                        updatedAt: object["updatedAt"]?.stringValue ?? created
                    )
                )
                if list.kind == .project {
                    let ids = [
                        RecordKind.todoset: object["todosetID"]?.intValue,
                        .messageBoard: object["messageBoardID"]?.intValue,
                    ]
                    data.addDock(to: id, at: created, ids: ids.compactMapValues { $0 })
                }
            }
        }
        data.records += try decoded(json["kept"]?["recordings"], as: [Record].self)
        return data
    }

    /// A webhook's fields with its layout-1 deliveries in the shape `recent_deliveries` answers.
    private static func deliveries(in fields: [String: JSONValue]) -> [String: JSONValue] {
        var fields = fields
        fields["recent_deliveries"] = .array(
            (fields["recent_deliveries"]?.arrayValue ?? []).map { delivery in
                WebhookDispatcher.delivery(
                    id: delivery["id"]?.intValue ?? 0,
                    at: delivery["createdAt"]?.stringValue ?? "",
                    sent: delivery["requestHeaders"]?.objectValue ?? [:],
                    body: delivery["requestBody"]?.stringValue ?? "",
                    code: delivery["responseCode"]?.intValue,
                    message: delivery["responseMessage"]?.stringValue ?? "",
                    received: delivery["responseHeaders"]?.objectValue ?? [:]
                )
            }
        )
        return fields
    }
}
