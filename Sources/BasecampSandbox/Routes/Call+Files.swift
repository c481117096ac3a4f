import Foundation
import HTTPCore

/// The bytes behind uploads: attachments as `POST /attachments.json` stores them, and an upload's versions.
extension Call {
    func createAttachment() throws -> APIReply {
        guard let name = query.first("name"), !name.isEmpty else { throw APIFailure.invalid("name", "can't be blank") }
        guard case .file(let stored) = received, stored.byteCount > 0 else {
            throw APIFailure(400, "The request needs a file body.")
        }
        let contentType = contentType ?? "application/octet-stream"
        var sgid = ""
        try write { data, now in
            sgid = "BAh7CEkiCGdpZAY6BkVUSSI\(data.makeID())"
            let attachment = AttachmentRecord(
                sgid: sgid,
                filename: name,
                contentType: contentType,
                data: Data(),
                file: stored.name,
                byteCount: Int(stored.byteCount),
                storageKey: UUID().uuidString,
                createdAt: now
            )
            data.attachments.append(attachment)
            return nil
        }
        return .json(["attachable_sgid": .string(sgid)], status: 201)
    }

    /// Each file the upload has held, newest first: the event that added it, with its file.
    func uploadVersions() throws -> APIReply {
        let data = store.snapshot()
        let upload = try named(.upload, in: data)
        let render = renderer(data)
        let sgids = (upload.fields["versions"]?.arrayValue ?? []) + [upload.fields["attachable_sgid"] ?? ""]
        let versions = sgids.compactMap(\.stringValue).enumerated().reversed().map { index, sgid in
            let attachment = data.attachment(sgid)
            var file = render.file(sgid, named: attachment?.filename ?? upload.title)
            file["filename"] = .string(attachment?.filename ?? upload.title)
            file["app_download_url"] = file["download_url"]
            file["current"] = .bool(index == sgids.count - 1)
            return Templates.uploadVersion.merging([
                "id": .integer(upload.id * 100 + index + 1),
                "recording_id": .integer(upload.id),
                "action": .string(index == 0 ? "created" : "version_added"),
                "created_at": .string(attachment?.createdAt ?? upload.createdAt),
                "creator": render.person(upload.creatorID),
                "upload": .object(file),
            ])
        }
        return .list(versions) { $0 }
    }
}
