import Foundation
import HTTPCore

/// Vaults, uploads and attachments, stateful with their bytes.
extension Handlers {
    /// The answer to a file operation, or nil for any other operation.
    func fileReply() throws -> APIReply? {
        switch request.operation.id {
        case "CreateAttachment": return try createAttachment()
        case "GetVault": return try fetched("vaultId", "Vault", AccountData.vault, Renderer.vault)
        case "ListVaults": return try listVaults()
        case "CreateVault": return try createVault()
        case "UpdateVault": return try updateVault()
        case "ListUploads": return try listUploads()
        case "GetUpload": return try fetched("uploadId", "Upload", AccountData.upload, Renderer.upload)
        case "CreateUpload": return try createUpload()
        case "UpdateUpload": return try updateUpload()
        case "CreateUploadVersion": return try createUploadVersion()
        case "ListUploadVersions": return try listUploadVersions()
        case "ListDocuments": return try listDocuments()
        case "GetDocument": return try fetched("documentId", "Document", AccountData.document, Renderer.document)
        case "CreateDocument": return try createDocument()
        case "ReplaceDocument": return try replaceDocument()
        default: return nil
        }
    }

    private func createAttachment() throws -> APIReply {
        guard let name = request.queryValue("name"), !name.isEmpty else {
            throw APIFailure.invalid("name", "can't be blank")
        }
        guard !request.body.isEmpty else { throw APIFailure(400, "The request needs a file body.") }
        let contentType = request.contentType ?? "application/octet-stream"
        let sgid = try store.update { data -> String in
            let sgid = "BAh7CEkiCGdpZAY6BkVUSSI\(data.makeID())"
            data.fileRecords.attachments.append(
                AttachmentRecord(
                    sgid: sgid,
                    filename: name,
                    contentType: contentType,
                    data: request.body,
                    storageKey: UUID().uuidString,
                    createdAt: Self.now()
                )
            )
            return sgid
        }
        return .json(["attachable_sgid": .string(sgid)], status: 201)
    }

    private func listVaults() throws -> APIReply {
        try listed(in: "vaultId", "Vault", AccountData.vault, Renderer.vault) { data, parent in
            data.fileRecords.vaults.filter { $0.parentID == parent && $0.status == "active" }
        }
    }

    private func createVault() throws -> APIReply {
        let parentID = try id("vaultId")
        let body = try request.jsonObject()
        let title = try requiredText(body, "title")
        return try created(AccountData.vault, Renderer.vault) { data in
            guard let parent = data.vault(parentID) else { throw APIFailure.notFound("Vault \(parentID)") }
            let now = Self.now()
            let id = data.makeID()
            data.fileRecords.vaults.append(
                VaultRecord(
                    id: id,
                    projectID: parent.projectID,
                    parentID: parentID,
                    title: title,
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    private func updateVault() throws -> APIReply {
        let vaultID = try id("vaultId")
        let body = try request.jsonObject()
        let title = body["title"] == nil ? nil : try requiredText(body, "title")
        let data = try store.update { data -> AccountData in
            guard let vault = data.vault(vaultID) else { throw APIFailure.notFound("Vault \(vaultID)") }
            if !data.fileRecords.vaults.contains(where: { $0.id == vaultID }) { data.fileRecords.vaults.append(vault) }
            guard let index = data.fileRecords.vaults.firstIndex(where: { $0.id == vaultID }) else { return data }
            if let title { data.fileRecords.vaults[index].title = title }
            data.fileRecords.vaults[index].updatedAt = Self.now()
            return data
        }
        guard let vault = data.vault(vaultID) else { throw APIFailure.notFound("Vault \(vaultID)") }
        return .json(renderer(data).vault(vault), status: 200)
    }

    private func listUploads() throws -> APIReply {
        try listed(in: "vaultId", "Vault", AccountData.vault, Renderer.upload) { data, vaultID in
            data.fileRecords.uploads.filter { $0.vaultID == vaultID && $0.status == "active" }
        }
    }

    private func createUpload() throws -> APIReply {
        let vaultID = try id("vaultId")
        let body = try request.jsonObject()
        let sgid = try requiredText(body, "attachable_sgid")
        return try created(AccountData.upload, Renderer.upload) { data in
            guard let vault = data.vault(vaultID) else { throw APIFailure.notFound("Vault \(vaultID)") }
            guard let attachment = data.fileRecords.attachment(sgid) else {
                throw APIFailure.invalid("attachable_sgid", "is not an attachment on this account")
            }
            let now = Self.now()
            let id = data.makeID()
            data.fileRecords.uploads.append(
                UploadRecord(
                    id: id,
                    projectID: vault.projectID,
                    vaultID: vaultID,
                    sgid: sgid,
                    filename: Self.fileName(body["base_name"]?.stringValue, attachment.filename),
                    description: body["description"]?.stringValue ?? "",
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    private func updateUpload() throws -> APIReply {
        let uploadID = try id("uploadId")
        let body = try request.jsonObject()
        return try updated(\.fileRecords.uploads, uploadID, noun: "Upload", Renderer.upload) { upload, _ in
            if let description = body["description"]?.stringValue { upload.description = description }
            if let name = body["base_name"]?.stringValue, !name.isEmpty {
                upload.filename = Self.fileName(name, upload.filename)
            }
        }
    }

    private func createUploadVersion() throws -> APIReply {
        let uploadID = try id("uploadId")
        let body = try request.jsonObject()
        let sgid = try requiredText(body, "attachable_sgid")
        let reply = try updated(\.fileRecords.uploads, uploadID, noun: "Upload", Renderer.upload) { upload, data in
            guard let attachment = data.fileRecords.attachment(sgid) else {
                throw APIFailure.invalid("attachable_sgid", "is not an attachment on this account")
            }
            upload.versions.append(upload.sgid)
            upload.sgid = sgid
            upload.filename = Self.fileName(body["base_name"]?.stringValue, attachment.filename)
            if let description = body["description"]?.stringValue { upload.description = description }
        }
        guard case .json(let value, _) = reply else { return reply }
        return .json(value, status: 201)
    }

    private func listUploadVersions() throws -> APIReply {
        let data = store.snapshot()
        let uploadID = try id("uploadId")
        guard let upload = data.fileRecords.upload(uploadID) else { throw APIFailure.notFound("Upload \(uploadID)") }
        let render = renderer(data)
        let sgids = upload.versions + [upload.sgid]
        let versions = sgids.enumerated().reversed().map { index, sgid in
            render.uploadVersion(upload, sgid: sgid, number: index + 1, current: index == sgids.count - 1)
        }
        return .list(versions)
    }

    /// `base_name` names the file without its extension; the attachment's extension is kept.
    static func fileName(_ baseName: String?, _ original: String) -> String {
        guard let baseName, !baseName.isEmpty else { return original }
        let ext = (original as NSString).pathExtension
        return ext.isEmpty ? baseName : baseName + "." + ext
    }
}
