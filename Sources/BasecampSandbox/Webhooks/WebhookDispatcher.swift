import Basecamp
import Foundation
import HTTPCore
import HTTPCoreWebhooks
import HTTPTypes
import HTTPTypesFoundation

/// Delivers the sandbox's webhook events: signed POSTs to every active webhook of the project
/// whose types match, each webhook's in order, failures (non-2xx, refused, timed out) retried
/// after each retry delay, every attempt recorded in `recent_deliveries`. Deliveries run on
/// tasks of their own, never on the request that caused the event, so they cannot slow the API.
final class WebhookDispatcher: Sendable {
    /// How many deliveries `recent_deliveries` keeps, newest first.
    static let recentDeliveryLimit = 25

    private let store: AccountStore
    private let basePath: String
    private let timeSource: any TimeSource
    private let retryDelays: [Duration]
    private let timeout: Duration
    private let transport = URLSessionTransport()
    /// Each webhook's latest delivery, which its next one waits for, and how many are unfinished.
    private let queue = Locked<(last: [Int: Task<Void, Never>], unfinished: Int)>(([:], 0))

    init(store: AccountStore, basePath: String, timeSource: any TimeSource, retryDelays: [Duration], timeout: Duration)
    {
        (self.store, self.basePath, self.timeSource) = (store, basePath, timeSource)
        (self.retryDelays, self.timeout) = (retryDelays, timeout)
    }

    /// Queues `event` for every webhook of its project that wants its recording; returns at once.
    func announce(_ event: EventRecord, in data: AccountData, origin: String) {
        guard let recording = data.recording(event.recordingID) else { return }
        let hooks = data.records.filter { hook in
            let types = hook.fields["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return hook.kind == .webhook && hook.projectID == event.projectID && hook.fields["active"] != false
                && (types.isEmpty || types.contains(recording.kind.type))
        }
        guard !hooks.isEmpty else { return }
        let renderer = Renderer(origin: origin, basePath: basePath, data: data)
        let body: JSONValue = [
            "id": .integer(event.id),
            "kind": .string(Renderer.kind(of: event, recording)),
            "details": [:],
            "created_at": .string(event.createdAt),
            "recording": renderer.record(recording),
            "creator": renderer.person(event.creatorID),
        ]
        for hook in hooks {
            guard let url = hook.fields["payload_url"]?.stringValue.flatMap(URL.init(string:)) else { continue }
            let secret = hook.fields["secret"]?.stringValue ?? BasecampSandboxModule.defaultWebhookSecret
            let webhookID = hook.id
            queue.withLock { queue in
                let previous = queue.last[webhookID]
                queue.unfinished += 1
                queue.last[webhookID] = Task {
                    await previous?.value
                    await self.deliver(body, to: url, signedWith: secret, for: webhookID)
                    self.queue.withLock { $0.unfinished -= 1 }
                }
            }
        }
    }

    /// Whether no delivery is queued or under way.
    var isIdle: Bool { queue.withLock { $0.unfinished == 0 } }

    /// Returns once every queued delivery has finished (delivered or out of retries).
    func waitUntilIdle() async {
        while let pending = queue.withLock({ $0.unfinished == 0 ? nil : Array($0.last.values) }) {
            for delivery in pending { await delivery.value }
        }
    }

    /// Sends `event` until the receiver answers 2xx, waiting each retry delay in turn.
    private func deliver(_ event: JSONValue, to url: URL, signedWith secret: String, for webhookID: Int) async {
        for retry in 0...retryDelays.count {
            if retry > 0 {
                do { try await timeSource.sleep(for: retryDelays[retry - 1]) } catch { return }
            }
            if await send(event, to: url, signedWith: secret, for: webhookID) { return }
        }
    }

    /// Sends once and records the attempt, as `recent_deliveries` shows it; `true` when the
    /// receiver answered 2xx.
    private func send(_ event: JSONValue, to url: URL, signedWith secret: String, for webhookID: Int) async -> Bool {
        let body = event.encoded()
        var request = HTTPRequest(method: .post, url: url)
        request.headerFields[.contentType] = "application/json"
        request.headerFields[.userAgent] = "Basecamp Webhooks (api-sandbox)"
        request.headerFields[BasecampWebhooks.signatureHeader] =
            BasecampWebhooks.signature(secret: secret).signature(for: body)
        var transportOptions = TransportOptions(timeout: timeout)
        transportOptions.isIdempotent = false
        let time = timeSource.now().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        var (code, message, received): (Int?, String, [String: JSONValue]) = (nil, "", [:])
        do {
            let response = try await transport.send(request, body: body, options: transportOptions)
            code = response.response.status.code
            message = response.response.status.reasonPhrase
            received = Self.headers(response.response.headerFields)
        } catch {
            message = String(describing: error)
        }
        let sent = Self.headers(request.headerFields)
        try? store.update { data in
            guard let index = data.records.firstIndex(where: { $0.id == webhookID }) else { return }
            let answer: JSONValue = [
                "headers": .object(received), "code": code.map(JSONValue.integer) ?? .null, "message": .string(message),
            ]
            let attempt: JSONValue = [
                "id": .integer(data.makeID()), "created_at": .string(time),
                "request": ["headers": .object(sent), "body": event], "response": answer,
            ]
            let recent = [attempt] + (data.records[index].fields["recent_deliveries"]?.arrayValue ?? [])
            data.records[index].fields["recent_deliveries"] = .array(Array(recent.prefix(Self.recentDeliveryLimit)))
        }
        return code.map { (200..<300).contains($0) } ?? false
    }

    private static func headers(_ fields: HTTPFields) -> [String: JSONValue] {
        Dictionary(fields.map { ($0.name.canonicalName, JSONValue.string($0.value)) }) { first, _ in first }
    }
}
