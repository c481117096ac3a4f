public import Foundation
public import HTTPCore

extension BasecampClient {
    /// Downloads the file behind a record's `download_url` straight to the file `destination`,
    /// replacing a file there once the new one is complete; the form that takes a
    /// `FileDestination` says how.
    public func download(
        _ downloadURL: String,
        to destination: URL,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        try await download(downloadURL, to: FileDestination(destination), resume: resume, progress: progress)
    }

    /// Downloads the file behind a record's `download_url` straight to `destination`, streaming
    /// it so memory stays flat whatever its size.
    ///
    /// The same two hops and rules as ``download(_:)``: the `download_url`, moved onto the API's
    /// origin, is fetched with your credentials, its redirect to storage with none. For a file
    /// destination the storage hop writes to `NAME.partial` beside it and resumes it (`Range`
    /// with `If-Range`) when an earlier download of the same file was interrupted and `resume` is
    /// on; a device, FIFO or standard output is written in place. See
    /// ``HTTPCore/Client/download(_:to:resume:progress:)``. A file the API serves itself (no
    /// redirect) is read whole, up to ``BasecampConfig/maxDownloadSize``, then written.
    ///
    /// - Parameter progress: Called as bytes reach the destination.
    /// - Throws: ``APIError/usage(_:)`` for a `download_url` that is not an absolute http(s)
    ///   URL; ``APIError`` for any failed hop; ``HTTPCore/FileWriteError`` when the destination
    ///   cannot be written.
    public func download(
        _ downloadURL: String,
        to destination: FileDestination,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        switch try await firstHop(downloadURL) {
        case .content(let download):
            try FileWriter.save(download.data, to: destination)
            let size = Int64(download.data.count)
            progress?(TransferProgress(completed: size, total: size))
            return FileDownload(file: destination.target, byteCount: size, url: http.baseURL)
        case .redirect(let location):
            return try await storage.download(
                Endpoint<Data>(.get, location.absoluteString, operation: DownloadHop.storageOperation),
                to: destination,
                resume: resume,
                progress: progress
            )
        }
    }
}

extension AccountClient {
    /// Downloads the file behind a record's `download_url` to the file `destination`; see
    /// ``BasecampClient``'s `download(_:to:resume:progress:)`, which also takes a
    /// `FileDestination` (a device, a FIFO, standard output, or a file not to be replaced).
    public func download(
        _ downloadURL: String,
        to destination: URL,
        resume: Bool = true,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> FileDownload {
        try await basecamp.download(downloadURL, to: destination, resume: resume, progress: progress)
    }
}
