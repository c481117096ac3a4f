import AsyncHTTPClient
import Foundation
import NIOCore

/// A request body already in memory, written a part at a time: the exchange counts each part
/// sent as activity, so a large body on a slow link is not taken for an idle one.
enum InMemoryUploadBody {
    /// The body for `data`: one write when it fits in a part of ``FileUploadBody/chunkSize``,
    /// otherwise one write per part, each as the connection takes the one before.
    static func body(for data: Data, on eventLoop: any EventLoop) -> HTTPClient.Body {
        guard data.count > FileUploadBody.chunkSize else { return .bytes(data) }
        return .stream(contentLength: Int64(data.count)) { writer in
            write(data, from: data.startIndex, to: writer, on: eventLoop)
        }
    }

    private static func write(
        _ data: Data,
        from start: Data.Index,
        to writer: HTTPClient.Body.StreamWriter,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        let end = data.index(start, offsetBy: FileUploadBody.chunkSize, limitedBy: data.endIndex) ?? data.endIndex
        let written = writer.write(.byteBuffer(ByteBuffer(bytes: data[start..<end])))
        guard end < data.endIndex else { return written }
        // Submitted rather than called, so parts the connection takes at once do not recurse.
        return written.flatMap { eventLoop.flatSubmit { write(data, from: end, to: writer, on: eventLoop) } }
    }
}
