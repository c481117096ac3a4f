import Basecamp
import HTTPCore

/// The actions of ``KeptAction``, the same for every kind.
extension Call {
    /// A create keeps the checked body; a list reads what the path's container (or, with none, the
    /// account) holds, `active` unless `status` says otherwise and, where the operation filters by
    /// it, open unless `completed=true`; an update changes the members its body names, and clears
    /// the ones it leaves out where the Spec marks it a whole-record replace.
    func perform(_ action: KeptAction, on kind: RecordKind) throws -> APIReply {
        switch action {
        case .create: return try create(kind)
        case .list: return try list(kind)
        case .get:
            let data = store.snapshot()
            return .json(renderer(data).record(try named(kind, in: data)), status: 200)
        case .update: return try update(kind, setting: nil)
        case .set(let members): return try update(kind, setting: members)
        case .move: return try move(kind)
        case .status(let status): return try setStatus(status, of: kind)
        case .delete:
            try write { data, _ in
                let id = try named(kind, in: data).id
                data.records.removeAll { $0.id == id }
                return nil
            }
            return .empty(status: operation.successStatus)
        }
    }

    /// Sets the status of the record the path names: of `kind`, or any recording when `nil`.
    func setStatus(_ status: String, of kind: RecordKind?) throws -> APIReply {
        try write { data, now in
            let id = try named(kind, in: data).id
            try data.change(id, at: now) { $0.status = status }
            return id
        }
        return .empty(status: operation.successStatus)
    }

    private func create(_ kind: RecordKind) throws -> APIReply {
        let body = try jsonObject()
        let parentID = lastID ?? 0
        let (data, id) = try write { data, now in
            let fields = try checked(body, for: kind, in: data)
            try requireContainer(of: kind, parentID, in: data)
            // A body may ask for a draft, which lists leave out until it is published.
            let status = body["status"]?.stringValue == "drafted" ? "drafted" : "active"
            return data.add(kind, fields, in: parentID, status: status, at: now)
        }
        return try answer(id, in: data)
    }

    private func list(_ kind: RecordKind) throws -> APIReply {
        let data = store.snapshot()
        let parentID = lastID
        if let parentID { try requireContainer(of: kind, parentID, in: data) }
        let status = query.first("status") ?? "active"
        let completed =
            operation.queryParameters.contains { $0.name == "completed" } ? query.first("completed") == "true" : nil
        func listed(_ record: Record) -> Bool {
            record.kind == kind && record.status == status && parentID.map { record.parentID == $0 } ?? true
                && completed.map { (record.fields["completed"]?.boolValue ?? false) == $0 } ?? true
        }
        // Places in the account's records rather than copies of them: a page renders 50 of thousands.
        var places = data.records.indices.filter { listed(data.records[$0]) }
        // Messages list newest first, as on the board; everything else in the order it was made.
        if kind == .message { places.sort { data.records[$0].createdAt > data.records[$1].createdAt } }
        let positions = parentID.map { data.positions(of: kind, in: $0) } ?? [:]
        let render = renderer(data)
        return .list(places) { render.record(data.records[$0], position: positions[data.records[$0].id]) }
    }

    /// Writes `members` when given, otherwise the checked body.
    private func update(_ kind: RecordKind, setting members: [String: JSONValue]?) throws -> APIReply {
        let body = try members == nil ? jsonObject() : [:]
        let cleared = BasecampExamples.clearedWhenOmitted(operation: operation.id)
        let (data, id) = try write { data, now in
            let record = try named(kind, in: data)
            let fields = try members ?? checked(body, for: kind, in: data, current: record)
            try data.change(record.id, at: now) { record in
                for member in cleared where body[member] == nil { record.fields[member] = nil }
                record.fields.merge(fields) { _, new in new }
            }
            return record.id
        }
        return try answer(id, in: data)
    }

    /// Moves the record to `position` (from 1) among its siblings, or last; into the container
    /// the body names (`column_id`, `parent_id`), if it names one.
    private func move(_ kind: RecordKind) throws -> APIReply {
        let body = try jsonObject()
        try requireFields(of: body)
        let position = body["position"]
        if let position, (position.intValue ?? 0) < 1 {
            throw APIFailure.invalid("position", "must be a whole number of at least 1")
        }
        try write { data, now in
            var record = try named(kind, in: data)
            for key in ["column_id", "parent_id"] {
                guard let parentID = body[key]?.intValue else { continue }
                guard case .kind(let container) = kind.container, let parent = data.record(parentID, of: container)
                else {
                    throw APIFailure.invalid(key, "names nothing this can move to")
                }
                (record.parentID, record.projectID) = (parent.id, parent.projectID)
            }
            record.updatedAt = now
            data.records.removeAll { $0.id == record.id }
            let siblings = data.records.indices.filter {
                data.records[$0].kind == kind && data.records[$0].parentID == record.parentID
            }
            let place = position?.intValue.flatMap { $0 <= siblings.count ? siblings[$0 - 1] : nil }
            data.records.insert(record, at: place ?? siblings.last.map { $0 + 1 } ?? data.records.count)
            return record.id
        }
        return .empty(status: operation.successStatus)
    }

    /// The record the path names: of `kind`, or any recording when `nil`; `not_found` when there
    /// is none, or when the path's project is not its own.
    func named(_ kind: RecordKind?, in data: AccountData) throws -> Record {
        let id = lastID ?? 0
        guard let record = kind.map({ data.record(id, of: $0) }) ?? data.recording(id),
            integer("bucketId").map({ $0 == record.projectID }) ?? true
        else { throw APIFailure.notFound("\(kind?.noun ?? "Recording") \(id)") }
        return record
    }

    /// Checks that `parentID` names something that holds records of `kind`.
    ///
    /// - Throws: ``APIFailure`` 404 naming what it should have been.
    private func requireContainer(of kind: RecordKind, _ parentID: Int, in data: AccountData) throws {
        switch kind.container {
        case .account: return
        case .project where data.record(parentID, of: .project) == nil: throw APIFailure.notFound("Project \(parentID)")
        case .kind(let container) where data.record(parentID, of: container) == nil:
            throw APIFailure.notFound("\(container.noun) \(parentID)")
        case .anyRecording where data.recording(parentID) == nil: throw APIFailure.notFound("Recording \(parentID)")
        case .project, .kind, .anyRecording: return
        }
    }

    /// The record as the operation answers it: its JSON with the success status, or no body where the Spec has none.
    private func answer(_ id: Int?, in data: AccountData) throws -> APIReply {
        guard operation.responseSchema != nil else { return .empty(status: operation.successStatus) }
        guard let record = id.flatMap(data.record) else { throw APIFailure(500, "The record was not stored.") }
        return .json(renderer(data).record(record), status: operation.successStatus)
    }
}
