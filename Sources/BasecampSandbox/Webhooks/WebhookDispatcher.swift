import Basecamp
import Foundation
import HTTPCore
import HTTPCoreWebhooks
import HTTPTypes
import HTTPTypesFoundation

/// Delivers the sandbox's webhook events: signed POSTs to every active webhook of the project
/// whose types match, each webhook's events in order, failures (non-2xx, refused, timed out)
/// retried after each of the retry delays, and every attempt recorded in `recent_deliveries`.
///
/// Delivery runs on a task per webhook, never on the request that caused the event, so a slow
/// receiver cannot slow the API.
final class WebhookDispatcher: Sendable {
    /// How deliveries are sent and retried.
    struct Options: Sendable {
        var transport: any HTTPTransport = URLSessionTransport()
        var retryDelays: [Duration] = BasecampSandboxModule.defaultWebhookRetryDelays
        var timeout: Duration = .seconds(10)
    }

    /// One event on its way to one webhook.
    struct Delivery: Sendable {
        var webhookID: Int
        var url: URL
        var secret: String
        var body: Data
    }

    /// How many deliveries `recent_deliveries` keeps, newest first.
    static let recentDeliveryLimit = 25

    private let store: AccountStore
    private let basePath: String
    private let timeSource: any TimeSource
    private let options: Options
    private let queues = Locked<[Int: AsyncStream<Delivery>.Continuation]>([:])
    private let inFlight = Locked(InFlight())

    /// Counts deliveries not yet finished, and who waits for there to be none.
    struct InFlight: Sendable {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    init(store: AccountStore, basePath: String, timeSource: any TimeSource, options: Options) {
        self.store = store
        self.basePath = basePath
        self.timeSource = timeSource
        self.options = options
    }

    deinit {
        for continuation in queues.withLock({ $0.values }) { continuation.finish() }
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
            enqueue(Delivery(webhookID: hook.id, url: url, secret: secret, body: body.encoded()))
        }
    }

    /// One attempt, as `recent_deliveries` shows it: the request sent and the answer, if any.
    static func delivery(
        id: Int,
        at time: String,
        sent: [String: JSONValue],
        body: String,
        code: Int?,
        message: String,
        received: [String: JSONValue]
    ) -> JSONValue {
        let parsed = (try? JSONValue(parsing: Data(body.utf8))) ?? .string(body)
        return [
            "id": .integer(id),
            "created_at": .string(time),
            "request": ["headers": .object(sent), "body": parsed],
            "response": [
                "headers": .object(received), "code": code.map(JSONValue.integer) ?? .null, "message": .string(message),
            ],
        ]
    }

    /// Whether no delivery is queued or under way.
    var isIdle: Bool { inFlight.withLock { $0.count == 0 } }

    /// Returns once every queued delivery has finished (delivered or out of retries).
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = inFlight.withLock { state -> Bool in
                if state.count == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func enqueue(_ delivery: Delivery) {
        inFlight.withLock { $0.count += 1 }
        let queue = queues.withLock { queues -> AsyncStream<Delivery>.Continuation in
            if let queue = queues[delivery.webhookID] { return queue }
            let (stream, queue) = AsyncStream.makeStream(of: Delivery.self)
            queues[delivery.webhookID] = queue
            Task { [weak self] in
                for await delivery in stream {
                    guard let self else { return }
                    await self.deliver(delivery)
                }
            }
            return queue
        }
        queue.yield(delivery)
    }

    private func deliver(_ delivery: Delivery) async {
        defer { finishOne() }
        for retry in 0...options.retryDelays.count {
            if retry > 0 {
                do { try await timeSource.sleep(for: options.retryDelays[retry - 1]) } catch { return }
            }
            if await send(delivery) { return }
        }
    }

    /// Sends once and records the outcome; `true` when the receiver answered 2xx.
    private func send(_ delivery: Delivery) async -> Bool {
        var request = HTTPRequest(method: .post, url: delivery.url)
        request.headerFields[.contentType] = "application/json"
        request.headerFields[.userAgent] = "Basecamp Webhooks (api-sandbox)"
        request.headerFields[BasecampWebhooks.signatureHeader] =
            BasecampWebhooks.signature(secret: delivery.secret).signature(for: delivery.body)
        var transportOptions = TransportOptions(timeout: options.timeout, redirectPolicy: .none)
        transportOptions.isIdempotent = false
        let time = timeSource.now().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        var (code, message, received): (Int?, String, [String: JSONValue]) = (nil, "", [:])
        do {
            let response = try await options.transport.send(request, body: delivery.body, options: transportOptions)
            code = response.response.status.code
            message = response.response.status.reasonPhrase
            received = Self.headers(response.response.headerFields)
        } catch {
            message = String(describing: error)
        }
        let sent = Self.headers(request.headerFields)
        let body = String(decoding: delivery.body, as: UTF8.self)
        try? store.update { data in
            guard let index = data.records.firstIndex(where: { $0.id == delivery.webhookID }) else { return }
            let attempt = Self.delivery(
                id: data.makeID(),
                at: time,
                sent: sent,
                body: body,
                code: code,
                message: message,
                received: received
            )
            let recent = [attempt] + (data.records[index].fields["recent_deliveries"]?.arrayValue ?? [])
            data.records[index].fields["recent_deliveries"] = .array(Array(recent.prefix(Self.recentDeliveryLimit)))
        }
        return code.map { (200..<300).contains($0) } ?? false
    }

    private static func headers(_ fields: HTTPFields) -> [String: JSONValue] {
        Dictionary(fields.map { ($0.name.canonicalName, JSONValue.string($0.value)) }) { first, _ in first }
    }

    private func finishOne() {
        let waiters = inFlight.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
