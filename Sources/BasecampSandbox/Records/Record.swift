import Foundation
import HTTPCore

/// Something the account keeps that operations create, read and change: a project and its dock,
/// to-dos, messages, comments, files, cards, check-ins, webhooks… One shape for every kind, so one
/// set of handlers serves them all (``OperationTable``).
struct Record: Codable, Sendable, Equatable {
    var id: Int
    var kind: RecordKind
    /// The project it is in; a project's is its own id.
    var projectID: Int
    /// What holds it (``RecordKind/container``): a record, the project, or 0 for the account.
    var parentID: Int
    /// `active`, `archived`, `trashed` or `drafted`.
    var status = "active"
    /// What the client wrote, kept as sent so that it reads back.
    var fields: [String: JSONValue]
    var creatorID: Int
    var createdAt: String
    var updatedAt: String

    /// What titles it in lists, search, events and ``SandboxRecording``.
    var title: String { fields[kind.titleMember]?.stringValue ?? "" }

    /// The text search reads besides the title.
    var text: String {
        ["content", "description"].filter { $0 != kind.titleMember }.compactMap { fields[$0]?.stringValue }
            .joined(separator: " ")
    }
}

/// Someone on the account; people are read, never written, through the API.
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

/// Something that happened to a recording, for its events, its project's timeline and webhooks.
struct EventRecord: Codable, Sendable, Equatable {
    var id: Int
    var recordingID: Int
    var projectID: Int
    /// `created`, `content_changed`, `completed`, `archived`…
    var action: String
    var creatorID: Int
    var createdAt: String
}

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

/// Uploaded bytes, as `POST /attachments.json` stored them: in ``file`` of the store's
/// ``AccountStore/files``, or (the seed's) in ``data``.
struct AttachmentRecord: Codable, Sendable, Equatable {
    var sgid: String
    var filename: String
    var contentType: String
    var data: Data
    var file: String? = nil
    var byteCount: Int? = nil
    /// The signature the storage URL must carry: the storage host trusts it, not a token.
    var storageKey: String
    var createdAt: String

    var size: Int { byteCount ?? data.count }
}
