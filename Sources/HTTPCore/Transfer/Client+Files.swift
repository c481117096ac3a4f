public import Foundation
public import HTTPTypes

/// A file a download wrote.
public struct FileDownload: Sendable {
    /// Where the file is.
    public var file: URL
    /// Its size in bytes.
    public var byteCount: Int64
    /// How many bytes an earlier, interrupted download had already stored: nonzero when this
    /// one resumed it.
    public var resumedFrom: Int64
    /// The final response's status (200, or 206 for a resumed download).
    public var status: HTTPResponse.Status
    /// The final response's headers.
    public var headers: HTTPFields
    /// The URL that answered, after any redirects.
    public var url: URL

    /// Creates a download result.
    public init(
        file: URL,
        byteCount: Int64,
        resumedFrom: Int64 = 0,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        url: URL
    ) {
        self.file = file
        self.byteCount = byteCount
        self.resumedFrom = resumedFrom
        self.status = status
        self.headers = headers
        self.url = url
    }
}

extension Client {
    /// Sends `endpoint` and streams its successful body to the file `destination`, never
    /// holding the whole body in memory; an existing file there is replaced once the new one is
    /// complete. The form that takes a ``FileDestination`` says how.
    ///
    /// - Throws: ``APIError`` for a failed call; ``FileWriteError`` when the file cannot be
    ///   written. The partial file is kept for a later resume.
    public func download<Value>(
        _ endpoint: Endpoint<Value>,
        to destination: URL,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        try await download(endpoint, to: FileDestination(destination), resume: resume, progress: progress)
    }

    /// Sends `endpoint` and streams its successful body to `destination`, never holding the
    /// whole body in memory.
    ///
    /// For a file destination, the body goes to a partial file next to the target
    /// (`NAME.partial`, locked while it is written, with the mode of the file it will replace),
    /// which replaces the target once complete, and only when
    /// ``FileDestination/replacing`` allows an existing file to be replaced. With `resume`, a
    /// partial file left by an interrupted download is continued with a `Range` request, guarded
    /// by `If-Range` so a file that changed on the server is fetched whole again; each retry of
    /// the call resumes too. A stream destination (a device, a FIFO, standard output) is written
    /// in place as the body arrives, and a retry continues it from where it stopped. The
    /// endpoint's decoder is not used, and the client's body-size limit does not apply.
    ///
    /// - Parameter progress: Called as bytes reach the destination.
    /// - Throws: ``APIError`` for a failed call; ``FileWriteError`` when the destination cannot
    ///   be written. A partial file is kept for a later resume.
    public func download<Value>(
        _ endpoint: Endpoint<Value>,
        to destination: FileDestination,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        try await download(endpoint, to: destination, resume: resume, permissions: .standard, progress: progress)
    }

    /// As the public download to a ``FileDestination``, with `permissions` for the file:
    /// `.ownerOnly` for one staged in a shared temporary folder.
    package func download<Value>(
        _ endpoint: Endpoint<Value>,
        to destination: FileDestination,
        resume: Bool,
        permissions: FileWriter.Permissions,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> FileDownload {
        let sink = try DownloadSink(
            destination: destination,
            resume: resume,
            permissions: permissions,
            progress: progress
        )
        let result = try await response(endpoint.decoding(.bytes), through: nil, transfer: FileTransfer(download: sink))
        guard (200..<300).contains(result.status.code) else {
            // A redirect handed back because the operation follows none: it has no body to keep.
            throw APIError.apiError(
                APIError.Details(
                    message: "The download was answered with a redirect (HTTP \(result.status.code)) that its "
                        + "operation does not follow; nothing was saved.",
                    hint: "Read its Location with response(_:) and download from there.",
                    httpStatus: result.status.code,
                    requestID: result.requestID
                )
            )
        }
        let size = sink.bytesOnDisk
        let resumedFrom = sink.resumedFrom
        try sink.complete()
        return FileDownload(
            file: destination.target,
            byteCount: size,
            resumedFrom: resumedFrom,
            status: result.status,
            headers: result.headers,
            url: result.url
        )
    }

    /// Sends `endpoint` with the contents of `file` as its body, read as it is sent rather than
    /// loaded into memory, and decodes the answer.
    ///
    /// The endpoint's own body is ignored; its `Content-Type` header (default
    /// `application/octet-stream`) is sent, with the file's size as `Content-Length`.
    ///
    /// - Parameter progress: Called as the body goes out.
    /// - Throws: ``APIError`` for a failed call or an unreadable file.
    public func upload<Value>(
        _ endpoint: Endpoint<Value>,
        fromFile file: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response<Value> {
        let length: Int64
        do {
            length = try TransportError.uploadLength(of: file)
        } catch {
            throw ErrorMapping.apiError(from: error, isIdempotent: false)
        }
        var streamed = endpoint
        if streamed.headers[.contentType] == nil {
            // A bytes body names its type; its bytes are replaced by the file's.
            if case .bytes(_, let contentType)? = endpoint.body?.storage {
                streamed.headers[.contentType] = contentType
            } else {
                streamed.headers[.contentType] = "application/octet-stream"
            }
        }
        streamed.body = nil
        streamed.headers[.contentLength] = String(length)
        return try await response(
            streamed,
            through: nil,
            transfer: FileTransfer(uploadFile: file, uploadProgress: progress)
        )
    }

    /// The partial file a download to the file `destination` writes first (for a symbolic link,
    /// the partial file is beside the file it points at: ``DownloadSink/partialFile``).
    public static func partialFile(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(destination.lastPathComponent + ".partial")
    }
}
