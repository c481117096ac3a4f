import Foundation

/// The account's files: vaults (folders), uploads (files in them) and the attachments that hold
/// the bytes. Kept apart from the rest of ``AccountData`` so that older state files, which have
/// none, still load.
struct FileRecords: Codable, Sendable, Equatable {
    var vaults: [VaultRecord] = []
    var uploads: [UploadRecord] = []
    var attachments: [AttachmentRecord] = []
    /// Absent from state files written before documents were kept.
    var documents: [DocumentRecord]? = nil

    /// A project's root vault ("Docs & Files") has an id derived from the project's, so every
    /// project has one without a stored record until something is written to it.
    static let rootVaultOffset = 2_000_000_000

    static func rootVaultID(ofProject projectID: Int) -> Int { projectID + rootVaultOffset }

    func upload(_ id: Int) -> UploadRecord? { uploads.first { $0.id == id } }
    func attachment(_ sgid: String) -> AttachmentRecord? { attachments.first { $0.sgid == sgid } }
}

struct DocumentRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    var vaultID: Int
    var title: String
    var content: String
    var status = "active"
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}

struct VaultRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    /// `nil` for a project's root vault.
    var parentID: Int?
    var title: String
    var status = "active"
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}

struct UploadRecord: Codable, Sendable, Equatable, ChangeableRecord {
    var id: Int
    var projectID: Int
    var vaultID: Int
    /// The attachment of the current version; earlier versions come first in `versions`.
    var sgid: String
    var versions: [String] = []
    var filename: String
    var description: String
    var status = "active"
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
}

/// Uploaded bytes, as `POST /attachments.json` stored them.
struct AttachmentRecord: Codable, Sendable, Equatable {
    var sgid: String
    var filename: String
    var contentType: String
    var data: Data
    /// The signature the storage URL must carry: the storage host trusts it, not a token.
    var storageKey: String
    var createdAt: String
}

extension AccountData {
    var fileRecords: FileRecords {
        get { files ?? FileRecords() }
        set { files = newValue }
    }

    func upload(_ id: Int) -> UploadRecord? { files?.upload(id) }
    func document(_ id: Int) -> DocumentRecord? { files?.documents?.first { $0.id == id } }

    /// The vault with `id`: a stored one, or a project's root vault.
    func vault(_ id: Int) -> VaultRecord? {
        if let stored = files?.vaults.first(where: { $0.id == id }) { return stored }
        let projectID = id - FileRecords.rootVaultOffset
        guard let project = project(projectID) else { return nil }
        return VaultRecord(
            id: id,
            projectID: projectID,
            parentID: nil,
            title: "Docs & Files",
            creatorID: meID,
            createdAt: project.createdAt,
            updatedAt: project.updatedAt
        )
    }
}
