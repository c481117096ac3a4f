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
///
/// When the sandbox stops, each queued event still gets its first attempt, but retries are
/// dropped: a short-lived `basecamp --sandbox` command delivers what it caused without waiting
/// out a dead receiver's retry delays.
final class WebhookDispatcher: Sendable {
    /// How many deliveries `recent_deliveries` keeps, newest first.
    static let recentDeliveryLimit = 25

    private struct Queue {
        /// Each webhook's latest delivery, which its next one waits for.
        var last: [Int: Task<Void, Never>] = [:]
        /// Every unfinished delivery, by a number of its own, so stopping can cancel stragglers.
        var unfinished: [Int: Task<Void, Never>] = [:]
        /// The retry pauses under way, cancelled when the sandbox stops.
        var pauses: [Int: Task<Void, any Error>] = [:]
        var nextNumber = 0
        var isStopping = false
    }

    private let store: AccountStore
    private let basePath: String
    private let timeSource: any TimeSource
    private let retryDelays: [Duration]
    private let timeout: Duration
    private let transport = URLSessionTransport()
    private let queue = Locked(Queue())

    init(store: AccountStore, basePath: String, timeSource: any TimeSource, retryDelays: [Duration], timeout: Duration)
    {
        (self.store, self.basePath, self.timeSource) = (store, basePath, timeSource)
        (self.retryDelays, self.timeout) = (retryDelays, timeout)
    }

    /// Queues `event` for every webhook of its project that wants its recording; returns at once. Its recording
    /// is rendered as the API answers it: links on `origin`, files on `storageOrigin` where one is played.
    func announce(_ event: EventRecord, in data: AccountData, origin: String, storageOrigin: String?) {
        guard let recording = data.recording(event.recordingID) else { return }
        let hooks = data.records.filter { hook in
            let types = hook.fields["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return hook.kind == .webhook && hook.projectID == event.projectID && hook.fields["active"] != false
                && (types.isEmpty || types.contains(recording.kind.type))
        }
        guard !hooks.isEmpty else { return }
        let renderer = Renderer(origin: origin, storageOrigin: storageOrigin, basePath: basePath, data: data)
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
                let number = queue.nextNumber
                queue.nextNumber += 1
                let delivery = Task {
                    await previous?.value
                    await self.deliver(body, to: url, signedWith: secret, for: webhookID)
                    self.queue.withLock { _ = $0.unfinished.removeValue(forKey: number) }
                }
                queue.last[webhookID] = delivery
                queue.unfinished[number] = delivery
            }
        }
    }

    /// Whether no delivery is queued or under way.
    var isIdle: Bool { queue.withLock { $0.unfinished.isEmpty } }

    /// Returns once every queued delivery has finished (delivered or out of retries).
    func waitUntilIdle() async {
        while let pending = queue.withLock({ $0.unfinished.isEmpty ? nil : Array($0.unfinished.values) }) {
            for delivery in pending { await delivery.value }
        }
    }

    /// Drops every retry, waiting or to come, lets each queued event have its first attempt for
    /// up to `grace`, then cancels what is left (a receiver that never answers).
    func stop(within grace: Duration) async {
        let pauses = queue.withLock { queue in
            queue.isStopping = true
            return Array(queue.pauses.values)
        }
        for pause in pauses { pause.cancel() }
        let deadline = ContinuousClock.now + grace
        while !isIdle, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for delivery in queue.withLock({ Array($0.unfinished.values) }) { delivery.cancel() }
    }

    /// Sends `event` until the receiver answers 2xx, waiting each retry delay in turn.
    private func deliver(_ event: JSONValue, to url: URL, signedWith secret: String, for webhookID: Int) async {
        for retry in 0...retryDelays.count {
            if retry > 0, !(await pause(for: retryDelays[retry - 1])) { return }
            if await send(event, to: url, signedWith: secret, for: webhookID) { return }
        }
    }

    /// Waits `delay` before a retry; `false` when the sandbox is stopping, so there is none.
    private func pause(for delay: Duration) async -> Bool {
        let timeSource = timeSource
        let started: (number: Int, pause: Task<Void, any Error>)? = queue.withLock { queue in
            guard !queue.isStopping, !Task.isCancelled else { return nil }
            let number = queue.nextNumber
            queue.nextNumber += 1
            let pause = Task { try await timeSource.sleep(for: delay) }
            queue.pauses[number] = pause
            return (number, pause)
        }
        guard let started else { return false }
        let slept = (try? await started.pause.value) != nil
        queue.withLock { _ = $0.pauses.removeValue(forKey: started.number) }
        return slept && !queue.withLock { $0.isStopping }
    }

    /// Sends once and records the attempt, as `recent_deliveries` shows it; `true` when the receiver answered 2xx.
    private func send(_ event: JSONValue, to url: URL, signedWith secret: String, for webhookID: Int) async -> Bool {
        let body = event.encoded()
        var request = HTTPRequest(method: .post, url: url)
        request.headerFields[.contentType] = "application/json"
        request.headerFields[.userAgent] = "Basecamp Webhooks (api-sandbox)"
        request.headerFields[BasecampWebhooks.signatureHeader] =
            BasecampWebhooks.signature(secret: secret).signature(for: body)
        var transportOptions = TransportOptions(timeout: timeout)
        transportOptions.isIdempotent = false
        let time = timeSource.now().formatted(.utcTimestampWithFraction)
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
