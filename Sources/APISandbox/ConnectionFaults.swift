import Hummingbird
import NIOCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Errors thrown after the sandbox has deliberately broken a connection. Throwing them, rather than
/// returning a response, stops Hummingbird from writing anything else: the error unwinds the
/// connection handler, which closes the channel.
enum InjectedFault: Error {
    case connectionClosed
    case bodyTruncated
}

/// Carries out a ``ConnectionFault`` on the live connection behind a request.
@available(macOS 14, iOS 17, tvOS 17, *)
enum ConnectionBreaker {
    /// Breaks the connection as `fault` describes. `produce` runs the route (or the scripted
    /// response) for the faults that need one; it is not called for the faults that fire first.
    static func apply(
        _ fault: ConnectionFault,
        request: Request,
        context: SandboxRequestContext,
        produce: () async throws -> Response
    ) async throws -> Response {
        switch fault {
        case .closeBeforeResponse:
            await close(context.channel, reset: false)
            throw InjectedFault.connectionClosed
        case .resetConnection:
            await close(context.channel, reset: true)
            throw InjectedFault.connectionClosed
        case .dropResponse:
            _ = try await produce()
            await close(context.channel, reset: false)
            throw InjectedFault.connectionClosed
        case .truncatedBody:
            let response = try await produce()
            // A bodiless response cannot be cut short, so the nearest failure is a lost response.
            guard request.method != .head, response.status.mayHaveBody else {
                await close(context.channel, reset: false)
                throw InjectedFault.connectionClosed
            }
            return try await truncated(response)
        }
    }

    /// Closes the socket before anything is written. With `reset`, `SO_LINGER` is set to zero
    /// first, which makes the kernel abort the connection with RST instead of an orderly FIN.
    static func close(_ channel: any Channel, reset: Bool) async {
        if reset, let socket = channel as? any SocketOptionProvider {
            try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }

    /// Returns a response whose head promises the whole body (or 64 bytes when there is none) but
    /// whose body sends only the first half and then throws. Hummingbird has already flushed the
    /// head and those bytes; the error then propagates out of its connection handler, which
    /// closes the channel, so the client sees a premature end of a `Content-Length` body.
    static func truncated(_ response: Response) async throws -> Response {
        let collector = BodyCollector()
        try await response.body.write(collector)
        let full = collector.buffer
        let declaredLength = full.readableBytes > 0 ? full.readableBytes : 64
        let partial = full.getSlice(at: full.readerIndex, length: full.readableBytes / 2) ?? ByteBuffer()
        var headers = response.headers
        headers[.contentLength] = String(declaredLength)
        headers[.transferEncoding] = nil
        let body = ResponseBody(contentLength: declaredLength) { writer in
            if partial.readableBytes > 0 {
                try await writer.write(partial)
            }
            throw InjectedFault.bodyTruncated
        }
        return Response(status: response.status, headers: headers, body: body)
    }
}

/// Gathers a response body in memory so it can be re-sent partially.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        self.buffer.writeImmutableBuffer(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension HTTPResponse.Status {
    /// 1xx, 204 and 304 responses never carry a body (RFC 9110 §6.4.1).
    var mayHaveBody: Bool {
        !(100..<200).contains(code) && code != 204 && code != 304
    }
}
