import Foundation
import HTTPCore

/// Builds the JSON of kept records from the Spec's example for each schema: the example supplies every member the SDK
/// expects, the record overwrites the facts, and nothing the schema lacks is added.
struct Renderer {
    /// Where links point: `url`s at this sandbox (the same paths the SDK calls), `app_url`s at a made-up web app.
    let apiBase: String
    /// Where `download_url`s point: the storage origin's copy of the API's paths.
    let storageBase: String
    let appBase: String
    let data: AccountData
    /// Each person's JSON, built once: every record names its creator and often more people.
    private let people: [Int: JSONValue]
    /// Each recording's active comments, counted once rather than once per item of a page.
    private let commentCounts: [Int: Int]

    /// - Parameter storageOrigin: The storage host's origin; the API's own when `nil`.
    init(origin: String, storageOrigin: String? = nil, basePath: String, data: AccountData) {
        self.apiBase = origin + basePath + "/\(data.accountID)"
        self.storageBase = (storageOrigin ?? origin) + basePath + "/\(data.accountID)"
        self.appBase = "https://3.basecamp.com/\(data.accountID)"
        self.data = data
        self.people = Dictionary(data.people.map { ($0.id, Self.person($0)) }) { first, _ in first }
        let comments = data.records.lazy.filter { $0.kind == .comment && $0.status == "active" }
        self.commentCounts = Dictionary(comments.map { ($0.parentID, 1) }, uniquingKeysWith: +)
    }

    func api(_ path: String) -> JSONValue { .string(apiBase + path) }
    func app(_ path: String) -> JSONValue { .string(appBase + path) }

    func person(_ id: Int) -> JSONValue { people[id] ?? .null }

    func bucket(_ projectID: Int) -> JSONValue {
        ["id": .integer(projectID), "name": .string(data.record(projectID)?.title ?? ""), "type": "Project"]
    }

    /// A record as its own `GET` answers it: the kind's blank example, the members every recording shares, what was
    /// written (`…_ids` members as the people they name), its place among its siblings, and what its kind derives from
    /// other records. `position` saves a page of a long list from counting each item's place again.
    func record(_ record: Record, position: Int? = nil) -> JSONValue {
        guard case .object(var answer) = Templates.blank(of: record.kind) else { return .null }
        let (id, path) = (record.id, record.kind.path(of: record))
        var members: [String: JSONValue] = [
            "id": .integer(id), "status": .string(record.status), "created_at": .string(record.createdAt),
            "updated_at": .string(record.updatedAt), "url": api(path), "app_url": app(path),
            "type": .string(record.kind.type), "title": .string(record.title), "visible_to_clients": false,
            "inherits_status": true, "bookmark_url": api("/recordings/\(id)/bookmark.json"),
            "subscription_url": api("/recordings/\(id)/subscription.json"),
            "comments_url": api("/recordings/\(id)/comments.json"), "comments_count": .integer(commentCounts[id] ?? 0),
            "boosts_count": 0, "boosts_url": api("/recordings/\(id)/boosts.json"), "bucket": bucket(record.projectID),
            "creator": person(record.creatorID),
        ]
        // Worth finding only where the schema has them: each looks through the account.
        if answer["parent"] != nil { members["parent"] = summary(of: record.parentID) }
        if answer["position"] != nil {
            let place = position ?? data.positions(of: record.kind, in: record.parentID)[id]
            members["position"] = .integer(place ?? 1)
        }
        for (key, value) in record.fields {
            if key.hasSuffix("_ids"), let ids = value.arrayValue {
                members[String(key.dropLast(4)) + "s"] = .array(ids.compactMap(\.intValue).map(person))
            } else {
                members[key] = value
            }
        }
        members.merge(derived(record)) { _, derived in derived }
        for (key, value) in members where answer[key] != nil { answer[key] = value }
        return .object(answer)
    }

    /// `{id, title, type, url, app_url, bucket}` of a record, as `parent` and `recording` members
    /// name one; `null` for a project, which a record's `bucket` names instead.
    func summary(of id: Int) -> JSONValue {
        guard let record = data.record(id), record.kind != .project else { return .null }
        let path = record.kind.path(of: record)
        return [
            "id": .integer(id), "title": .string(record.title), "type": .string(record.kind.type), "url": api(path),
            "app_url": app(path), "bucket": bucket(record.projectID),
        ]
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
}
