import Foundation
import HTTPCore

extension Renderer {
    func vault(_ vault: VaultRecord) -> JSONValue {
        let path = "/vaults/\(vault.id)"
        var members = recording(vault, type: "Vault", path: path, title: vault.title)
        let files = data.files ?? FileRecords()
        members["uploads_count"] = .integer(
            files.uploads.count { $0.vaultID == vault.id && $0.status == "active" }
        )
        members["uploads_url"] = api("\(path)/uploads.json")
        members["vaults_count"] = .integer(
            files.vaults.count { $0.parentID == vault.id && $0.status == "active" }
        )
        members["vaults_url"] = api("\(path)/vaults.json")
        members["documents_count"] = .integer(
            (files.documents ?? []).count { $0.vaultID == vault.id && $0.status == "active" }
        )
        members["documents_url"] = api("\(path)/documents.json")
        if let parentID = vault.parentID {
            members["parent"] = [
                "id": .integer(parentID), "title": .string(data.vault(parentID)?.title ?? ""), "type": "Vault",
                "url": api("/vaults/\(parentID)"), "app_url": app("/vaults/\(parentID)"),
            ]
        } else {
            members["parent"] = .null
        }
        return Templates.vault.merging(members)
    }

    func upload(_ upload: UploadRecord) -> JSONValue {
        let attachment = data.files?.attachment(upload.sgid)
        var members = recording(upload, type: "Upload", path: "/uploads/\(upload.id)", title: upload.filename)
        members["filename"] = .string(upload.filename)
        members["description"] = .string(upload.description)
        members["description_attachments"] = []
        members["content_type"] = .string(attachment?.contentType ?? "application/octet-stream")
        members["byte_size"] = .integer(attachment?.data.count ?? 0)
        members["download_url"] = .string(
            BlobRoutes.downloadURL(apiBase: apiBase, sgid: upload.sgid, filename: upload.filename)
        )
        members["width"] = .null
        members["height"] = .null
        members["parent"] = [
            "id": .integer(upload.vaultID), "title": .string(data.vault(upload.vaultID)?.title ?? ""), "type": "Vault",
            "url": api("/vaults/\(upload.vaultID)"), "app_url": app("/vaults/\(upload.vaultID)"),
        ]
        return Templates.upload.merging(members)
    }
}

extension Renderer {
    /// The project's "Docs & Files" tool, whose id is its root vault's.
    func vaultDockItem(_ project: ProjectRecord) -> JSONValue {
        let id = FileRecords.rootVaultID(ofProject: project.id)
        let path = "/vaults/\(id)"
        return [
            "id": .integer(id), "title": "Docs & Files", "name": "vault", "enabled": true,
            "position": 3, "url": api(path), "app_url": app(path),
        ]
    }
}

extension Renderer {
    func document(_ document: DocumentRecord) -> JSONValue {
        var members = recording(document, type: "Document", path: "/documents/\(document.id)", title: document.title)
        members["content"] = .string(document.content)
        members["content_attachments"] = []
        members["parent"] = [
            "id": .integer(document.vaultID), "title": .string(data.vault(document.vaultID)?.title ?? ""),
            "type": "Vault", "url": api("/vaults/\(document.vaultID)"), "app_url": app("/vaults/\(document.vaultID)"),
        ]
        return Templates.document.merging(members)
    }
}

extension Renderer {
    /// Version `number` (from 1) of an upload: the event that added it, with its file.
    func uploadVersion(_ upload: UploadRecord, sgid: String, number: Int, current: Bool) -> JSONValue {
        let attachment = data.files?.attachment(sgid)
        let filename = attachment?.filename ?? upload.filename
        let downloadURL = BlobRoutes.downloadURL(apiBase: apiBase, sgid: sgid, filename: filename)
        return Templates.uploadVersion.merging([
            "id": .integer(upload.id * 100 + number),
            "recording_id": .integer(upload.id),
            "action": .string(number == 1 ? "created" : "version_added"),
            "created_at": .string(attachment?.createdAt ?? upload.createdAt),
            "creator": person(upload.creatorID),
            "upload": [
                "content_type": .string(attachment?.contentType ?? "application/octet-stream"),
                "byte_size": .integer(attachment?.data.count ?? 0),
                "filename": .string(filename),
                "download_url": .string(downloadURL),
                "app_download_url": .string(downloadURL),
                "current": .bool(current),
            ],
        ])
    }
}

extension Templates {
    static let vault = parsed("Vault")
    static let upload = parsed("Upload")
    static let document = parsed("Document")
    static let uploadVersion = parsed("UploadVersion")
}
