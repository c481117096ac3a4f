import HTTPCore
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Writes every response's `Date` header from the sandbox's own clock. Hummingbird sets the
/// header from the system clock after the routes have answered, so a skewed server clock can
/// only be played below it, on the connection.
final class DateHeaderHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let clock: any TimeSource

    init(clock: any TimeSource) {
        self.clock = clock
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
            return context.write(data, promise: promise)
        }
        head.headerFields[.date] = HTTPDate.format(clock.now())
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
