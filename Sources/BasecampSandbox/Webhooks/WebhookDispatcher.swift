import Basecamp
import Foundation
import HTTPCore
import HTTPCoreWebhooks
import HTTPTypes
import HTTPTypesFoundation

/// Delivers the sandbox's webhook events: signed POSTs to every active webhook of the project
/// whose types match, each webhook's events in order, failures (non-2xx, refused, timed out)
/// retried after each of ``retryDelays``, and every attempt recorded in `recent_deliveries`.
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

    private let store: AccountStore
    private let basePath: String
    private let options: Options
    private let queues = Locked<[Int: AsyncStream<Delivery>.Continuation]>([:])
    private let inFlight = Locked(InFlight())

    /// Counts deliveries not yet finished, and who waits for there to be none.
    struct InFlight: Sendable {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    init(store: AccountStore, basePath: String, options: Options) {
        self.store = store
        self.basePath = basePath
        self.options = options
    }

    deinit {
        for continuation in queues.withLock({ $0.values }) { continuation.finish() }
    }

    /// Queues `kind` about `recordingID` for every webhook that wants it; returns at once.
    func announce(kind: String, recordingID: Int, origin: String) {
        let data = store.snapshot()
        guard let source = data.recordingSource(recordingID) else { return }
        let hooks = data.hooks.filter { $0.projectID == source.projectID && $0.accepts(type: source.type) }
        guard !hooks.isEmpty, let eventID = try? store.update({ $0.makeID() }) else { return }
        let renderer = Renderer(origin: origin, basePath: basePath, data: data)
        let event: JSONValue = [
            "id": .integer(eventID),
            "kind": .string(kind),
            "details": [:],
            "created_at": .string(Handlers.now()),
            "recording": source.render(renderer),
            "creator": renderer.person(data.meID),
        ]
        let body = event.encoded()
        for hook in hooks {
            guard let url = URL(string: hook.payloadURL) else { continue }
            enqueue(Delivery(webhookID: hook.id, url: url, secret: hook.secret, body: body))
        }
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
                do { try await Task.sleep(for: options.retryDelays[retry - 1]) } catch { return }
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
        var transportOptions = TransportOptions(timeout: options.timeout)
        transportOptions.isIdempotent = false
        let sentHeaders = Dictionary(
            request.headerFields.map { ($0.name.canonicalName, $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
        var record = WebhookDeliveryRecord(
            id: 0,
            createdAt: Handlers.now(),
            requestHeaders: sentHeaders,
            requestBody: String(decoding: delivery.body, as: UTF8.self),
            responseCode: nil,
            responseMessage: "",
            responseHeaders: [:]
        )
        let succeeded: Bool
        do {
            let response = try await options.transport.send(request, body: delivery.body, options: transportOptions)
            record.responseCode = response.response.status.code
            record.responseMessage = response.response.status.reasonPhrase
            record.responseHeaders = Dictionary(
                response.response.headerFields.map { ($0.name.canonicalName, $0.value) },
                uniquingKeysWith: { first, _ in first }
            )
            succeeded = response.response.status.kind == .successful
        } catch {
            record.responseMessage = String(describing: error)
            succeeded = false
        }
        try? store.update { data in
            guard let index = data.hooks.firstIndex(where: { $0.id == delivery.webhookID }) else { return }
            record.id = data.makeID()
            data.hooks[index].deliveries.insert(record, at: 0)
            data.hooks[index].deliveries = Array(data.hooks[index].deliveries.prefix(WebhookRecord.recentDeliveryLimit))
        }
        return succeeded
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
