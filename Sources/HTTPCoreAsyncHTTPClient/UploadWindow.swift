import NIOCore

/// The chunks of an upload read from its file but not yet written to the connection.
///
/// AsyncHTTPClient accepts a body write at once while the request body is "producing", even
/// when the connection runs on another loop and cannot take it yet, so a reader that only waits
/// for each write's future reads the whole file into memory. Taking a slot before each read and
/// giving it back when AsyncHTTPClient reports the chunk sent keeps an upload's memory at
/// `chunks` reads, whatever the file's size.
final class UploadWindow: Sendable {
    private struct State {
        var free: Int
        var waiting: EventLoopPromise<Void>?
        var isClosed = false
    }

    private let state: NIOLoopBoundBox<State>

    /// A window of `chunks` slots, used on `eventLoop`.
    init(chunks: Int, eventLoop: any EventLoop) {
        state = NIOLoopBoundBox.makeBoxSendingValue(State(free: chunks), eventLoop: eventLoop)
    }

    /// Succeeds when a chunk may be read: at once while a slot is free, else when one is given
    /// back. Fails once the exchange has ended, so a reader the server stopped listening to
    /// (an early `413`) lets go of its file.
    func take() -> EventLoopFuture<Void> {
        let eventLoop = state.eventLoop
        guard eventLoop.inEventLoop else { return eventLoop.flatSubmit { self.take() } }
        if state.value.isClosed { return eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        if state.value.free > 0 {
            state.value.free -= 1
            return eventLoop.makeSucceededVoidFuture()
        }
        let promise = eventLoop.makePromise(of: Void.self)
        state.value.waiting = promise
        return promise.futureResult
    }

    /// Gives a slot back once a chunk is written to the connection.
    func give() {
        guard state.eventLoop.inEventLoop else { return state.eventLoop.execute { self.give() } }
        if let waiting = state.value.waiting {
            state.value.waiting = nil
            waiting.succeed()
        } else {
            state.value.free += 1
        }
    }

    /// Ends the window when the exchange ends; a waiting ``take()`` fails.
    func close() {
        guard state.eventLoop.inEventLoop else { return state.eventLoop.execute { self.close() } }
        state.value.isClosed = true
        state.value.waiting?.fail(ChannelError.ioOnClosedChannel)
        state.value.waiting = nil
    }
}
