import Foundation
import HTTPCoreWebhooks
import Hummingbird
import NIOCore

extension RouterMethods {
    /// Answers `POST path` with `receiver`: the body is read up to the receiver's size cap, the
    /// delivery verified, deduplicated and routed, and the ``WebhookResult``'s status sent back.
    ///
    /// ```swift
    /// router.webhooks("/basecamp/webhooks", receiver: receiver)
    /// ```
    ///
    /// - Parameters:
    ///   - path: the route, relative to the router or group.
    ///   - receiver: the receiver with its handlers.
    ///   - onResult: called with every delivery's result (rejections included), for logging.
    @discardableResult
    public func webhooks<Event: WebhookEventPayload>(
        _ path: RouterPath = "",
        receiver: WebhookReceiver<Event>,
        onResult: (@Sendable (WebhookResult) async -> Void)? = nil
    ) -> Self {
        post(path) { request, _ -> Response in
            let result = await WebhookDeliveryReader.receive(request, with: receiver)
            await onResult?(result)
            return WebhookDeliveryReader.response(for: result)
        }
    }
}

/// Reads a Hummingbird request into a receiver and its result into a response.
enum WebhookDeliveryReader {
    /// Collects the body while it arrives, stopping as soon as it passes the receiver's cap.
    static func receive<Event: WebhookEventPayload>(
        _ request: Request,
        with receiver: WebhookReceiver<Event>
    ) async -> WebhookResult {
        var body = Data()
        do {
            for try await buffer in request.body {
                guard body.count + buffer.readableBytes <= receiver.maxBodySize else {
                    return .tooLarge(limit: receiver.maxBodySize)
                }
                body.append(contentsOf: buffer.readableBytesView)
            }
        } catch {
            return .malformed(reason: "the body could not be read")
        }
        return await receiver.receive(body: body, headers: request.headers)
    }

    /// The status and a one-line plain-text body.
    static func response(for result: WebhookResult) -> Response {
        Response(
            status: .init(code: result.statusCode),
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: result.responseText + "\n"))
        )
    }
}
