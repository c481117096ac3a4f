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
        var body = body
        if let file = transfer.uploadFile {
            do {
                body = try Data(contentsOf: file)
            } catch {
                throw TransportError.unreadableUpload(file, error)
            }
            let length = Int64(body?.count ?? 0)
            transfer.uploadProgress?(TransferProgress(completed: length, total: length))
        }
        var result = try await send(request, body: body, options: options)
        if let sink = transfer.download, (200..<300).contains(result.response.status.code) {
            defer { sink.close() }
            try sink.begin(result.response)
            try sink.write(result.body)
            result.body = Data()
        }
        return result
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
