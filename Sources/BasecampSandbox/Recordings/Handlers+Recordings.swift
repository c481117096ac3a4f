import Basecamp
import Foundation
import HTTPCore

/// The kept kinds (cards, schedule entries, Campfire lines, check-ins, message types, boosts),
/// answered from one table: a create stores what was sent, a get or list reads it back, an
/// update changes only the members it names.
extension Handlers {
    /// Answers an operation of ``RecordingRoute/table``; `nil` for any other.
    func keptReply() throws -> APIReply? {
        guard let route = RecordingRoute.table[request.operation.id] else { return nil }
        let kind = route.kind
        switch route.action {
        case .create: return try announcing("\(kind.eventPrefix)_created", createStored(route))
        case .list: return try listStored(route)
        case .get: return try getStored(route)
        case .update:
            let id = try id(route.parameter)
            return try announcing("\(kind.eventPrefix)_changed", recording: id, updateStored(route, id: id))
        case .delete: return try deleteStored(route)
        case .move: return try moveCard(route)
        }
    }

    private func createStored(_ route: RecordingRoute) throws -> APIReply {
        let parentID = try id(route.parameter)
        let body = try checkedBody(for: route.kind)
        let now = Self.now()
        let (data, id) = try store.update { data -> (AccountData, Int) in
            let projectID = try data.projectID(holding: route.kind, in: parentID)
            let id = data.makeID()
            data.keptRecords.recordings.append(
                StoredRecording(
                    id: id,
                    kind: route.kind,
                    projectID: projectID,
                    parentID: parentID,
                    fields: body,
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return (data, id)
        }
        return try answer(id, of: route.kind, in: data)
    }

    /// Active records by default; `status=archived` or `trashed` lists those instead.
    private func listStored(_ route: RecordingRoute) throws -> APIReply {
        let data = store.snapshot()
        let parentID = try id(route.parameter)
        _ = try data.projectID(holding: route.kind, in: parentID)
        let status = request.queryValue("status") ?? "active"
        let records = data.keptRecords.recordings.filter {
            $0.kind == route.kind && $0.parentID == parentID && $0.status == status
        }
        return .list(records, renderer(data).stored)
    }

    private func getStored(_ route: RecordingRoute) throws -> APIReply {
        let data = store.snapshot()
        return .json(renderer(data).stored(try record(route, in: data)), status: 200)
    }

    private func updateStored(_ route: RecordingRoute, id: Int) throws -> APIReply {
        let body = try checkedBody(for: route.kind)
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            _ = try record(route, in: data)
            try data.change(\.keptRecords.recordings, id, noun: route.kind.noun, at: now) { record in
                record.fields.merge(body) { _, sent in sent }
            }
            return data
        }
        return try answer(id, of: route.kind, in: data)
    }

    private func deleteStored(_ route: RecordingRoute) throws -> APIReply {
        try store.update { data in
            let id = try record(route, in: data).id
            data.keptRecords.recordings.removeAll { $0.id == id }
        }
        return .empty(status: request.operation.successStatus)
    }

    /// A card to another column (`column_id`), at `position` among its cards or last.
    private func moveCard(_ route: RecordingRoute) throws -> APIReply {
        let body = try request.jsonObject()
        guard let columnID = body["column_id"]?.intValue else {
            throw APIFailure.invalid("column_id", "can't be blank")
        }
        let now = Self.now()
        try store.update { data in
            var card = try record(route, in: data)
            guard let column = data.stored(columnID, of: .cardColumn) else {
                throw APIFailure.invalid("column_id", "names no column")
            }
            data.keptRecords.recordings.removeAll { $0.id == card.id }
            (card.parentID, card.projectID, card.updatedAt) = (column.id, column.projectID, now)
            let siblings = data.keptRecords.recordings.indices.filter {
                data.keptRecords.recordings[$0].parentID == column.id
            }
            let position = body["position"]?.intValue ?? Int.max
            let index =
                position >= 1 && position <= siblings.count ? siblings[position - 1] : data.keptRecords.recordings.count
            data.keptRecords.recordings.insert(card, at: index)
        }
        return .empty(status: request.operation.successStatus)
    }

    /// The record of `route`'s kind that the path names; `not_found` when there is none, or when
    /// the path's project is not its own.
    private func record(_ route: RecordingRoute, in data: AccountData) throws -> StoredRecording {
        let id = try id(route.parameter)
        guard let record = data.stored(id, of: route.kind),
            request.integer("bucketId").map({ $0 == record.projectID }) ?? true
        else { throw APIFailure.notFound("\(route.kind.noun) \(id)") }
        return record
    }

    /// The stored record as the operation answers it: its JSON, or no body where the Spec has none.
    private func answer(_ id: Int, of kind: RecordingKind, in data: AccountData) throws -> APIReply {
        let status = request.operation.successStatus
        guard request.operation.responseSchema != nil else { return .empty(status: status) }
        guard let record = data.stored(id, of: kind) else { throw APIFailure(500, "The record was not stored.") }
        return .json(renderer(data).stored(record), status: status)
    }

    /// The body, checked as Basecamp checks it: required members present, dates that are dates,
    /// people who are on the account. A step's `completion` becomes its `completed`.
    private func checkedBody(for kind: RecordingKind) throws -> [String: JSONValue] {
        var body = try request.jsonObject()
        try requireFields(of: body)
        let data = store.snapshot()
        let template = Templates.byKind[kind] ?? .null
        for (key, value) in body {
            if key.hasSuffix("_on") { _ = try date(body, key) }
            if key.hasSuffix("_ids") { _ = try people(body, key, data: data) }
            // All-day schedule entries travel as bare dates, as the SDK's edits send them.
            if key.hasSuffix("_at"), key != "completed_at", let text = value.stringValue,
                WireFormat.timestamp(from: text, allowingDateOnly: true) == nil
            {
                throw APIFailure.invalid(key, "must be a time like 2026-02-06T09:00:00Z, or a date for all day")
            }
            // What is stored is answered back, so a member must have the shape the SDK reads.
            if let expected = template[key], let shape = expected.shapeName,
                value.shapeName.map({ $0 != shape }) == true
            {
                throw APIFailure.invalid(key, "must be \(shape)")
            }
        }
        if let completion = body["completion"]?.stringValue {
            body["completed"] = .bool(completion == "on")
            body["completed_at"] = completion == "on" ? .string(Self.now()) : .null
        }
        return body
    }
}

extension AccountData {
    /// The project of what `parentID` names, when it can hold a record of `kind`.
    ///
    /// - Throws: ``APIFailure`` 404 when it names nothing that can.
    func projectID(holding kind: RecordingKind, in parentID: Int) throws -> Int {
        switch kind.container {
        case .tool(let tool):
            if let project = project(ofTool: tool, id: parentID) { return project.id }
            throw APIFailure.notFound("\(tool.title) \(parentID)")
        case .kind(let parentKind):
            if let parent = stored(parentID, of: parentKind) { return parent.projectID }
            throw APIFailure.notFound("\(parentKind.noun) \(parentID)")
        case .project:
            if project(parentID) != nil { return parentID }
            throw APIFailure.notFound("Project \(parentID)")
        case .anyRecording:
            if let recording = recordingSource(parentID) { return recording.projectID }
            throw APIFailure.notFound("Recording \(parentID)")
        }
    }
}

extension JSONValue {
    /// What kind of JSON value it is, for shape checks; `nil` for `null`, which fits anything.
    fileprivate var shapeName: String? {
        switch self {
        case .null: nil
        case .bool: "true or false"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
