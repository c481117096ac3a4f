public import Foundation
public import HTTPCore

extension AttachmentsService {
    /// Uploads the file at `file` as an attachment, streaming it from disk, and returns the
    /// `attachable_sgid` that uploads, documents and messages refer to it by.
    ///
    /// - Parameters:
    ///   - name: The file name Basecamp shows; the file's own name by default.
    ///   - contentType: The media type; guessed from the name's extension by default.
    ///   - progress: Called as the bytes go out.
    /// - Throws: ``APIError``; an unreadable file is reported before anything is sent.
    public func create(
        fileAt file: URL,
        name: String? = nil,
        contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> CreateAttachmentResponse {
        let name = name ?? file.lastPathComponent
        let endpoint = createEndpoint(
            data: Data(),
            name: name,
            contentType: contentType ?? MediaType.forFileName(name)
        )
        return try await context.basecamp.http.upload(context.prepared(endpoint), fromFile: file, progress: progress)
            .value
    }
}

extension AccountClient {
    /// Uploads a file into a vault in one call: creates the attachment from the file (streamed
    /// from disk) and the upload record that shows it in the vault.
    ///
    /// - Parameters:
    ///   - file: The file to upload.
    ///   - vaultID: The vault ("Docs & Files" or a folder in it).
    ///   - description: The upload's description, rich text.
    ///   - contentType: The media type; guessed from the file's extension by default.
    ///   - progress: Called as the bytes go out.
    /// - Throws: ``APIError``. When the file was stored but the upload record failed, its hint
    ///   names the attachment's `attachable_sgid`, so the record can be made without sending the
    ///   file again.
    public func upload(
        file: URL,
        toVault vaultID: Int64,
        description: String? = nil,
        contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Upload {
        try await storing(file, contentType: contentType, progress: progress) { sgid in
            try await uploads.create(
                vaultID: vaultID,
                CreateUploadRequest(attachableSgid: sgid, description: description)
            )
        }
    }

    /// Replaces an upload's file with a new version: uploads the file as an attachment, then
    /// adds it to the upload, which keeps its earlier versions.
    ///
    /// - Throws: ``APIError``; as ``upload(file:toVault:description:contentType:progress:)``, one
    ///   that comes once the file was stored names its `attachable_sgid` in its hint.
    public func replaceUpload(
        _ uploadID: Int64,
        with file: URL,
        description: String? = nil,
        contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Upload {
        try await storing(file, contentType: contentType, progress: progress) { sgid in
            try await uploads.createVersion(
                uploadID: uploadID,
                CreateUploadVersionRequest(attachableSgid: sgid, description: description)
            )
        }
    }

    /// Stores `file` as an attachment, then returns what `record` makes of its `attachable_sgid`;
    /// an error `record` throws also says the file is stored, so a second try need not send it again.
    private func storing(
        _ file: URL,
        contentType: String?,
        progress: (@Sendable (TransferProgress) -> Void)?,
        then record: (String) async throws -> Upload
    ) async throws -> Upload {
        let attachment = try await attachments.create(fileAt: file, contentType: contentType, progress: progress)
        let sgid = try Self.sgid(attachment)
        do {
            return try await record(sgid)
        } catch var error as APIError {
            let check = error.code == .ambiguous ? "check whether the upload was made; if not, " : ""
            let kept =
                "The file is stored as an attachment: \(check)create the upload with attachable_sgid \(sgid) "
                + "instead of sending the file again."
            error.details.hint = [error.hint, kept].compactMap { $0 }.joined(separator: " ")
            throw error
        }
    }

    private static func sgid(_ attachment: CreateAttachmentResponse) throws -> String {
        guard let sgid = attachment.attachableSgid, !sgid.isEmpty else {
            throw APIError.apiError(
                APIError.Details(message: "Basecamp created the attachment but sent no attachable_sgid.")
            )
        }
        return sgid
    }
}

/// Media types for common file extensions, for uploads that do not name one.
public enum MediaType {
    /// The media type for `name`'s extension; `application/octet-stream` when unknown.
    public static func forFileName(_ name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        return byExtension[ext] ?? "application/octet-stream"
    }

    private static let byExtension: [String: String] = [
        "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "json": "application/json", "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
        "heic": "image/heic", "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/wav", "mp4": "video/mp4",
        "mov": "video/quicktime", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "key": "application/vnd.apple.keynote", "pages": "application/vnd.apple.pages",
        "numbers": "application/vnd.apple.numbers",
    ]
}
