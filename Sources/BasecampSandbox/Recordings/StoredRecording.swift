import HTTPCore

/// A record of one of the ``RecordingKind``s: where it lives, its status and times, and the
/// members the client sent, kept as sent so that what was written reads back.
struct StoredRecording: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var kind: RecordingKind
    var projectID: Int
    /// The tool, record, project or recording that holds it (see ``RecordingKind/container``).
    var parentID: Int
    var status = "active"
    var fields: [String: JSONValue]
    var creatorID: Int
    var createdAt: String
    var updatedAt: String

    var title: String { fields[kind.titleField]?.stringValue ?? "" }
}

/// Something that happened to a recording, kept for its events and the project's timeline.
struct EventRecord: Codable, Sendable, Equatable {
    var id: Int
    var recordingID: Int
    var projectID: Int
    /// `created`, `content_changed`, `completed`, `archived`…
    var action: String
    var creatorID: Int
    var createdAt: String
}

/// A recording someone bookmarked.
struct BookmarkRecord: Codable, Sendable, Equatable {
    var id: Int
    var recordingID: Int
    var personID: Int
    var createdAt: String
}

/// Who follows a recording, once anyone changed it from the default (its creator).
struct SubscriptionRecord: Codable, Sendable, Equatable {
    var recordingID: Int
    var personIDs: [Int]
}

/// Everything the sandbox keeps beyond projects, to-dos, messages and files. Optional in
/// ``AccountData`` so that state files written before it existed still load.
struct KeptRecords: Codable, Sendable, Equatable {
    var recordings: [StoredRecording] = []
    var events: [EventRecord] = []
    var bookmarks: [BookmarkRecord] = []
    var subscriptions: [SubscriptionRecord] = []
}

extension AccountData {
    var keptRecords: KeptRecords {
        get { kept ?? KeptRecords() }
        set { kept = newValue }
    }

    func stored(_ id: Int) -> StoredRecording? { kept?.recordings.first { $0.id == id } }

    func stored(_ id: Int, of kind: RecordingKind) -> StoredRecording? {
        stored(id).flatMap { $0.kind == kind ? $0 : nil }
    }

    /// The project whose `tool` has `id`.
    func project(ofTool tool: ProjectTool, id: Int) -> ProjectRecord? {
        tool.projectID(fromToolID: id).flatMap(project)
    }
}
