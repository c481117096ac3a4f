public import Foundation
public import HTTPCore

extension BasecampClient {
    /// Downloads the file behind a record's `download_url` straight to `destination`, streaming
    /// it so memory stays flat whatever its size.
    ///
    /// The same two hops and credential rule as ``download(_:)``: the `download_url` is fetched
    /// with your credentials, its redirect to storage with none. The storage hop writes to
    /// `destination.partial` and resumes it (`Range` with `If-Range`) when an earlier download
    /// of the same file was interrupted and `resume` is on; see
    /// ``HTTPCore/Client/download(_:to:resume:progress:)``.
    ///
    /// - Parameter progress: Called as bytes reach the file.
    /// - Throws: ``APIError/usage(_:)`` for a URL that is not on the API's origin;
    ///   ``APIError`` for any failed hop.
    public func download(
        _ downloadURL: String,
        to destination: URL,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        switch try await firstHop(downloadURL) {
        case .content(let download):
            do {
                try download.data.write(to: destination, options: .atomic)
            } catch {
                throw APIError.usage(
                    "Could not save the download to \(destination.path): \(error.localizedDescription)"
                )
            }
            let size = Int64(download.data.count)
            progress?(TransferProgress(completed: size, total: size))
            return FileDownload(file: destination, byteCount: size, url: http.baseURL)
        case .redirect(let location):
            return try await storage.download(
                Endpoint<Data>(
                    .get,
                    location,
                    headers: [.accept: "*/*"],
                    operation: OperationMetadata(name: "DownloadFromStorage", service: "downloads")
                ),
                to: destination,
                resume: resume,
                progress: progress
            )
        }
    }
}

extension AccountClient {
    /// Downloads the file behind a record's `download_url` to `destination`; see
    /// ``BasecampClient/download(_:to:resume:progress:)``.
    public func download(
        _ downloadURL: String,
        to destination: URL,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        try await basecamp.download(downloadURL, to: destination, resume: resume, progress: progress)
    }
}
