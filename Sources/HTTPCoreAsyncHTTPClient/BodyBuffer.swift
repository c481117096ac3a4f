import Foundation
import NIOCore

/// A response body as it arrives on the event loop: NIO's own buffers, copied into `Data` only
/// by the task that asked for the response.
///
/// The loop serves every request on its connections, so work taken off it is work no other
/// request waits for. A body that comes in one part (most JSON responses) is kept as the slice
/// NIO read it into, with no copy on the loop at all; the caller then makes its `Data` in one
/// copy on its own thread, right before decoding, as a caller of AsyncHTTPClient's async API
/// does. (Appending each part to `Data` on the loop, as before, measured no slower or faster in
/// the GET benchmark within its noise of a few percent; this is for the loop's sake.)
struct BodyBuffer: Sendable {
    private var buffer: ByteBuffer?
    /// The declared length, to size the buffer once a second part arrives.
    private let expectedLength: Int?
    /// Whether `buffer` is ours to write to rather than a slice of a part NIO handed over.
    private var isOwned = false

    init(expectedLength: Int? = nil) {
        self.expectedLength = expectedLength
    }

    /// The bytes kept so far.
    var count: Int { buffer?.readableBytes ?? 0 }

    /// Keeps `part` after the bytes already kept.
    mutating func append(_ part: ByteBuffer) {
        guard var kept = buffer else {
            buffer = part
            return
        }
        buffer = nil
        if !isOwned {
            // The first part belongs to NIO's read buffer; start one of our own, sized for the
            // whole body when its length was declared.
            let needed = kept.readableBytes + part.readableBytes
            var owned = ByteBufferAllocator().buffer(capacity: max(expectedLength ?? 0, needed))
            owned.writeImmutableBuffer(kept)
            kept = owned
            isOwned = true
        }
        kept.writeImmutableBuffer(part)
        buffer = kept
    }

    /// The body as `Data`; call it on the task that uses the body.
    var data: Data {
        guard let buffer, buffer.readableBytes > 0 else { return Data() }
        return Data(buffer.readableBytesView)
    }
}
