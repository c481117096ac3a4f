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
        // `kept` is then the only reference to our own storage, so writes need no copy.
        buffer = nil
        // Room for the rest of a declared body, or at least for this part. The first part is a
        // slice of NIO's read buffer, not ours: this is where it is copied into our own buffer,
        // once, sized for the whole body when its length was declared.
        let rest = (expectedLength ?? 0) - kept.readableBytes
        kept.reserveCapacity(minimumWritableBytes: max(rest, part.readableBytes))
        kept.writeImmutableBuffer(part)
        buffer = kept
    }

    /// The body as `Data`; call it on the task that uses the body.
    var data: Data {
        guard let buffer, buffer.readableBytes > 0 else { return Data() }
        return Data(buffer.readableBytesView)
    }
}
