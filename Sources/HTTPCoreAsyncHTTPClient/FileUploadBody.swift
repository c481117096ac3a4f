import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore

/// A request body read from a file a chunk at a time, as the connection takes it.
enum FileUploadBody {
    /// How much of the file is read per write: large enough for throughput, small enough that
    /// memory stays flat.
    static let chunkSize = 256 * 1024

    /// The body for `file`, of `length` bytes; each write waits for the previous to be sent.
    ///
    /// - Throws: ``HTTPCore/TransportError`` when the file cannot be opened.
    static func body(for file: URL, length: Int64, on eventLoop: any EventLoop) throws -> HTTPClient.Body {
        // Opened once up front, so an unreadable file fails before anything is sent.
        do {
            try FileHandle(forReadingFrom: file).close()
        } catch {
            throw TransportError.unreadableUpload(file, error)
        }
        return .stream(contentLength: length) { writer in
            do {
                let handle = try FileHandle(forReadingFrom: file)
                return pump(handle, to: writer, on: eventLoop).always { _ in try? handle.close() }
            } catch {
                return eventLoop.makeFailedFuture(TransportError.unreadableUpload(file, error))
            }
        }
    }

    private static func pump(
        _ handle: FileHandle,
        to writer: HTTPClient.Body.StreamWriter,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        let chunk: Data
        do {
            chunk = try handle.read(upToCount: chunkSize) ?? Data()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        guard !chunk.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        return writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).flatMap {
            pump(handle, to: writer, on: eventLoop)
        }
    }
}
