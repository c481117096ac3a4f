public import Foundation
public import HTTPTypes

/// Files a call streams instead of holding its bodies in memory.
///
/// Set by ``Client/download(_:to:resume:progress:)`` and ``Client/upload(_:fromFile:progress:)``
/// and read by the transport stage, which hands it to
/// ``HTTPTransport/send(_:body:options:transfer:)``.
public struct FileTransfer: Sendable {
    /// Stream the request body from this file.
    public var uploadFile: URL?
    /// Write a successful (2xx) response body here instead of collecting it.
    public var download: DownloadSink?
    /// Called as the request body goes out.
    public var uploadProgress: (@Sendable (TransferProgress) -> Void)?

    /// Creates a transfer.
    public init(
        uploadFile: URL? = nil,
        download: DownloadSink? = nil,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.uploadFile = uploadFile
        self.download = download
        self.uploadProgress = uploadProgress
    }
}

extension HTTPTransport {
    /// Sends a request whose bodies are files, through ``send(_:body:options:)``: reads the
    /// upload into memory and writes the response body to the sink once it is all in.
    ///
    /// This is the fallback for transports that cannot stream (a scripted transport in tests);
    /// ``URLSessionTransport`` and the AsyncHTTPClient transport stream both ways.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer
    ) async throws -> TransportResponse {
        let result = try await send(request, body: transfer.bufferedBody(body), options: options)
        return try transfer.deliverBuffered(result)
    }
}

extension FileTransfer {
    /// The body to send whole: the upload file's bytes when there is one, else `body`.
    ///
    /// - Throws: ``TransportError`` when the upload file cannot be read; nothing was sent.
    package func bufferedBody(_ body: Data?) throws -> Data? {
        guard let uploadFile else { return body }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: uploadFile)
        } catch {
            throw TransportError.unreadableUpload(uploadFile, error)
        }
        let length = Int64(bytes.count)
        uploadProgress?(TransferProgress(completed: length, total: length))
        return bytes
    }

    /// `result` with a successful body written to the download sink, as a transport that
    /// cannot stream delivers it: all at once, after it has arrived.
    package func deliverBuffered(_ result: TransportResponse) throws -> TransportResponse {
        guard let download, (200..<300).contains(result.response.status.code) else { return result }
        defer { download.close() }
        try download.begin(result.response)
        try download.write(result.body)
        var delivered = result
        delivered.body = Data()
        return delivered
    }
}

extension TransportError {
    /// An upload file that could not be opened or read: nothing was sent.
    package static func unreadableUpload(_ file: URL, _ error: any Error) -> TransportError {
        TransportError(
            .other,
            requestMayHaveBeenSent: false,
            message: "Could not read \(file.path): \(error.localizedDescription)"
        )
    }

    /// The size of an upload file, for its `Content-Length`.
    package static func uploadLength(of file: URL) throws -> Int64 {
        guard let size = DownloadSink.size(of: file) else {
            throw unreadableUpload(file, CocoaError(.fileReadNoSuchFile))
        }
        return size
    }
}

extension FileTransfer {
    /// The transfer for one hop of a redirected request: a redirect that turned the request into
    /// a GET (a 303, say) dropped its `Content-Length`, and with it the upload.
    package func forHop(_ hop: HTTPRequest) -> FileTransfer {
        var transfer = self
        if hop.headerFields[.contentLength] == nil { transfer.uploadFile = nil }
        return transfer
    }
}
