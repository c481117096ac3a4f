import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore

/// A request body read from a file a chunk at a time, as the connection takes it.
enum FileUploadBody {
    /// How much of the file is read per write: large enough for throughput, small enough that
    /// memory stays flat.
    static let chunkSize = 256 * 1024
    /// How many chunks may be read ahead of the connection: enough to keep it busy.
    static let chunksInFlight = 4

    /// The body for `file`, of `length` bytes; a chunk is read only when `window` has a slot,
    /// which the exchange's delegate gives back as each chunk is sent.
    ///
    /// - Throws: ``HTTPCore/TransportError`` when the file cannot be opened.
    static func body(
        for file: URL,
        length: Int64,
        window: UploadWindow,
        on eventLoop: any EventLoop
    ) throws -> HTTPClient.Body {
        // Opened once up front, so an unreadable file fails before anything is sent.
        do {
            try FileHandle(forReadingFrom: file).close()
        } catch {
            throw TransportError.unreadableUpload(file, error)
        }
        return .stream(contentLength: length) { writer in
            do {
                let handle = try FileHandle(forReadingFrom: file)
                return pump(handle, to: writer, window: window, on: eventLoop).always { _ in try? handle.close() }
            } catch {
                return eventLoop.makeFailedFuture(TransportError.unreadableUpload(file, error))
            }
        }
    }

    private static func pump(
        _ handle: FileHandle,
        to writer: HTTPClient.Body.StreamWriter,
        window: UploadWindow,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        window.take().flatMap {
            let chunk: ByteBuffer
            do {
                chunk = try readChunk(from: handle)
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
            guard chunk.readableBytes > 0 else { return eventLoop.makeSucceededVoidFuture() }
            return writer.write(.byteBuffer(chunk)).flatMap {
                // A write the connection takes at once completes at once, so calling the next
                // step here would recurse through the whole file, every chunk alive on the stack.
                eventLoop.flatSubmit { pump(handle, to: writer, window: window, on: eventLoop) }
            }
        }
    }

    /// The next chunk of the file, read straight into the buffer that is sent (`FileHandle`'s
    /// reads go through `Data`, which costs a copy per chunk); empty at the end of the file.
    private static func readChunk(from handle: FileHandle) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { bytes in
            try FileDescriptorIO.readFull(
                UnsafeMutableRawBufferPointer(rebasing: bytes.prefix(chunkSize)),
                from: handle.fileDescriptor
            )
        }
        return buffer
    }
}
