import HTTPCore

/// Everything the sandbox keeps for its one account, in plain Codable form so the whole account
/// can be written to (and read back from) a state file.
///
/// Only facts live here; the JSON each record answers with is built from the Spec's example for
/// its schema (``Renderer``), so every member the SDK expects is always present.
struct AccountData: Codable, Sendable, Equatable {
    /// Bumped when the layout changes, so a state file of another layout is refused.
    static let currentVersion = 2

    var version = AccountData.currentVersion
    var accountID: Int
    var accountName: String
    var meID: Int
    var nextID: Int
    var people: [PersonRecord] = []
    /// Every kept record, in the order lists show them.
    var records: [Record] = []
    var attachments: [AttachmentRecord] = []
    var events: [EventRecord] = []
    var bookmarks: [BookmarkRecord] = []
    var subscriptions: [SubscriptionRecord] = []

    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    func person(_ id: Int) -> PersonRecord? { people.first { $0.id == id } }
    func record(_ id: Int) -> Record? { records.first { $0.id == id } }
    func record(_ id: Int, of kind: RecordKind) -> Record? { record(id).flatMap { $0.kind == kind ? $0 : nil } }
    func attachment(_ sgid: String) -> AttachmentRecord? { attachments.first { $0.sgid == sgid } }

    /// The recording with `id`, of any kind that is one.
    func recording(_ id: Int) -> Record? { record(id).flatMap { $0.kind.isRecording ? $0 : nil } }

    /// Adds a record held by `parentID` (0 for the account) and returns its id: `id` when given,
    /// otherwise a new one. A project comes with its dock (a message board, to-dos, Docs & Files
    /// and the tools), with ids derived from the project's unless `dockIDs` names them.
    @discardableResult
    mutating func add(
        _ kind: RecordKind,
        _ fields: [String: JSONValue],
        in parentID: Int,
        id: Int? = nil,
        status: String = "active",
        by creatorID: Int? = nil,
        at time: String,
        dockIDs: [RecordKind: Int] = [:]
    ) -> Int {
        let id = id ?? makeID()
        let parent = record(parentID)
        let projectID = kind == .project ? id : parent.map { $0.kind == .project ? $0.id : $0.projectID } ?? 0
        records.append(
            Record(
                id: id,
                kind: kind,
                projectID: projectID,
                parentID: parentID,
                status: status,
                fields: fields,
                creatorID: creatorID ?? meID,
                createdAt: time,
                updatedAt: time
            )
        )
        guard kind == .project else { return id }
        for tool in RecordKind.allCases {
            guard let dock = tool.dock else { continue }
            add(tool, ["title": .string(dock.title)], in: id, id: dockIDs[tool] ?? id + dock.idOffset, at: time)
        }
        return id
    }

    /// Applies `change` to the record `id` and stamps it with `now`, as Basecamp stamps every edit.
    mutating func change(_ id: Int, at now: String, _ change: (inout Record) throws -> Void) throws {
        guard let index = records.firstIndex(where: { $0.id == id }) else {
            throw APIFailure.notFound("Recording \(id)")
        }
        try change(&records[index])
        records[index].updatedAt = now
    }

    /// Who follows the recording: as last changed, or else its creator.
    func subscribers(of recordingID: Int) -> [Int] {
        if let kept = subscriptions.first(where: { $0.recordingID == recordingID }) { return kept.personIDs }
        return recording(recordingID).map { [$0.creatorID] } ?? []
    }

    /// Where each record of `kind` in `parentID` stands (from 1), in one pass: a page of a long
    /// list asks for fifty of them.
    func positions(of kind: RecordKind, in parentID: Int) -> [Int: Int] {
        var positions: [Int: Int] = [:]
        // By place: going through the records themselves would copy each one.
        for place in records.indices where records[place].kind == kind && records[place].parentID == parentID {
            positions[records[place].id] = positions.count + 1
        }
        return positions
    }
}
