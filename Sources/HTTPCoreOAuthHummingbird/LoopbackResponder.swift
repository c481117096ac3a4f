import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers every request as ``HTTPCoreOAuth/LoopbackRedirectRules`` say, offering callbacks to
/// the waiting sign-in through the gate.
@available(macOS 14, iOS 17, tvOS 17, *)
struct LoopbackResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let host: LoopbackHost
    let callbackPath: String
    let pages: LoopbackPages
    let gate: CallbackGate
    /// The rules, once the bound port is known.
    private let rules = Locked<LoopbackRedirectRules?>(nil)

    init(host: LoopbackHost, callbackPath: String, pages: LoopbackPages, gate: CallbackGate) {
        self.host = host
        self.callbackPath = callbackPath
        self.pages = pages
        self.gate = gate
    }

    /// Learns the port the server is bound to.
    func bound(to port: Int) {
        let rules = try? LoopbackRedirectRules(host: host, port: port, callbackPath: callbackPath, pages: pages)
        self.rules.withLock { $0 = rules }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let rules = rules.withLock({ $0 }) else {
            return Self.response(LoopbackAnswer(status: 503, text: pages.refused))
        }
        switch rules.verdict(
            method: request.method.rawValue,
            target: request.head.path ?? "",
            host: request.head.authority
        ) {
        case .answer(let answer):
            return Self.response(answer)
        case .callback(let callback):
            let accepted = await gate.offer(callback)
            return Self.response(rules.answer(toCallback: callback, accepted: accepted))
        }
    }

    private static func response(_ answer: LoopbackAnswer) -> Response {
        var fields = HTTPFields()
        for (name, value) in LoopbackAnswer.headerFields {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status, reasonPhrase: answer.reasonPhrase),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.html))
        )
    }
}

/// Closes each connection once its response is written, as the pages' `Connection: close`
/// says: the listener serves one request per connection, and a browser never holds it open.
final class CloseAfterResponseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        context.writeAndFlush(data, promise: promise)
        context.close(promise: nil)
    }
}
