import Foundation
import HTTPTypes

/// Receives webhook deliveries: checks the size and signature, parses the event, drops
/// duplicates, and runs the handlers whose patterns match the event's kind, inside the
/// middlewares. Knows no server framework: give it the body and headers, answer with the
/// ``WebhookResult``'s status.
///
/// ```swift
/// var receiver = WebhookReceiver<GenericWebhookEvent>(
///     signature: WebhookSignature(secret: secret, headerName: .init("X-Signature")!)
/// )
/// receiver.on("todo_*") { event, _ in try await sync(event) }
/// receiver.on("*_created") { event, _ in notify(event) }
/// let result = await receiver.receive(body: body, headers: headers)
/// // answer with result.statusCode
/// ```
///
/// An event counts as handled only when all its handlers succeed; until then a redelivery runs
/// them again. Deliveries of one id that arrive together run the handlers once. Copies of a
/// receiver share what they have handled; replicas in several processes share it through a
/// ``WebhookDeliveryLedger`` they all use (`PostgresDeliveryLedger` in HTTPCorePostgres), and a
/// delivery of an event another replica is handling is answered ``WebhookResult/inFlight(id:kind:)``
/// (503), so the sender tries again later.
public struct WebhookReceiver<Event: WebhookEventPayload>: Sendable {
    /// How deliveries are verified; `nil` accepts unsigned deliveries (for local tests only).
    public var signature: WebhookSignature?
    /// The largest body accepted, in bytes; larger deliveries are ``WebhookResult/tooLarge(limit:)``.
    public var maxBodySize: Int
    /// Turns a body into an event; a thrown error makes the delivery malformed.
    public var decode: @Sendable (Data) throws -> Event

    private var routes: [(pattern: WebhookKindPattern, handler: WebhookHandler<Event>)] = []
    private var middlewares: [any WebhookMiddleware] = []
    /// Where the receiver records which events are being handled and were handled.
    public let ledger: any WebhookDeliveryLedger

    /// A receiver with no handlers yet, remembering handled events in memory.
    ///
    /// - Parameters:
    ///   - signature: the shared secret and header; `nil` skips verification (tests only).
    ///   - maxBodySize: the largest body accepted (1 MiB by default).
    ///   - dedupeWindow: how many handled event ids are remembered (10,000 by default).
    public init(signature: WebhookSignature?, maxBodySize: Int = 1 << 20, dedupeWindow: Int = 10_000) {
        self.init(
            signature: signature,
            maxBodySize: maxBodySize,
            ledger: InMemoryDeliveryLedger(capacity: dedupeWindow)
        )
    }

    /// A receiver with no handlers yet, recording deliveries in `ledger` (one shared by every
    /// replica, so an event is handled once across them).
    ///
    /// - Parameters:
    ///   - signature: the shared secret and header; `nil` skips verification (tests only).
    ///   - maxBodySize: the largest body accepted (1 MiB by default).
    ///   - ledger: where claims and handled events are recorded.
    public init(signature: WebhookSignature?, maxBodySize: Int = 1 << 20, ledger: any WebhookDeliveryLedger) {
        self.signature = signature
        self.maxBodySize = maxBodySize
        self.decode = { try JSONDecoder().decode(Event.self, from: $0) }
        self.ledger = ledger
    }

    /// Runs `handler` for events whose kind matches any of `patterns` (`todo_*`, `*_created`,
    /// `comment_created`). Handlers run in the order they were added.
    public mutating func on(_ patterns: WebhookKindPattern..., run handler: @escaping WebhookHandler<Event>) {
        for pattern in patterns { routes.append((pattern, handler)) }
    }

    /// Runs `handler` for every event.
    public mutating func onAny(_ handler: @escaping WebhookHandler<Event>) {
        routes.append((.any, handler))
    }

    /// Adds a middleware around the handlers; the first added runs outermost.
    public mutating func use(_ middleware: any WebhookMiddleware) {
        middlewares.append(middleware)
    }

    /// Whether any handler's pattern matches `kind`.
    public func hasHandler(for kind: String) -> Bool {
        routes.contains { $0.pattern.matches(kind) }
    }

    /// Handles one delivery and says how to answer it.
    public func receive(body: Data, headers: HTTPFields, receivedAt: Date = Date()) async -> WebhookResult {
        guard body.count <= maxBodySize else { return .tooLarge(limit: maxBodySize) }
        if let signature {
            let sent = headers[signature.headerName] ?? ""
            guard !sent.trimmingCharacters(in: .whitespaces).isEmpty else { return .unsigned }
            guard signature.isValid(sent, for: body) else { return .badSignature }
        }
        let event: Event
        do {
            event = try decode(body)
        } catch {
            return .malformed(reason: Self.reason(error))
        }
        let id = event.webhookEventID
        let kind = event.webhookEventKind
        var claim: WebhookClaim?
        if let id {
            switch try? await ledger.claim(id) {
            case .claimed(let granted)?: claim = granted
            case .alreadyHandled?: return .duplicate(id: id, kind: kind)
            case .inFlightElsewhere?: return .inFlight(id: id, kind: kind)
            case nil: return .handlerFailed(id: id, kind: kind, reason: "the delivery ledger is unavailable")
            }
        }
        let context = WebhookContext(eventID: id, kind: kind, headers: headers, body: body, receivedAt: receivedAt)
        // The handlers run in a task of their own so that losing the claim can cancel them.
        let handlers = Task { [chain = chain()] in try await chain(event, context) }
        let renewal = claim.flatMap { claim in Self.renewing(claim, in: ledger) { handlers.cancel() } }
        let failure: (any Error)?
        do {
            try await withTaskCancellationHandler {
                try await handlers.value
            } onCancel: {
                handlers.cancel()
            }
            failure = nil
        } catch {
            failure = error
        }
        renewal?.cancel()
        if let id, await renewal?.value == true {
            // Another receiver holds the event now, so its claim is not this one's to release.
            return .handlerFailed(
                id: id,
                kind: kind,
                reason: "the claim could not be renewed and another receiver took the event over; "
                    + "its handlers were cancelled"
            )
        }
        if let failure {
            // A release that fails leaves the claim to expire; the redelivery then takes it over.
            if let claim { try? await ledger.release(claim) }
            return .handlerFailed(id: id, kind: kind, reason: String(describing: failure))
        }
        // The handlers succeeded: a record that fails only risks running them again on a
        // redelivery, which webhook handlers must tolerate anyway.
        if let claim { try? await ledger.markHandled(claim) }
        return .handled(id: id, kind: kind)
    }

    /// Renews `claim` at the ledger's interval until cancelled, so that handlers slower than the
    /// lease keep their event, and calls `lost` once the ledger says another receiver has it;
    /// the task's value says whether that happened. `nil` for a ledger whose claims do not run out.
    private static func renewing(
        _ claim: WebhookClaim,
        in ledger: any WebhookDeliveryLedger,
        lost: @escaping @Sendable () -> Void
    ) -> Task<Bool, Never>? {
        guard let interval = ledger.renewalInterval else { return nil }
        return Task {
            // On a fixed schedule from the claim, so a slow renewal does not push the next one
            // toward the end of the lease.
            var next = ContinuousClock.now + interval
            while (try? await Task.sleep(until: next)) != nil {
                next += interval
                // An unreachable ledger is tried again at the next tick.
                if (try? await ledger.renew(claim)) == false {
                    lost()
                    return true
                }
            }
            return false
        }
    }

    /// The middlewares wrapped around the matching handlers, built inside out in one loop.
    private func chain() -> WebhookNext<Event> {
        let routes = routes
        var next: WebhookNext<Event> = { event, context in
            for route in routes where route.pattern.matches(context.kind) {
                try await route.handler(event, context)
            }
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { event, context in try await middleware.intercept(event, context: context, next: inner) }
        }
        return next
    }

    /// A short reason for a decoding failure, without the body's content.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not a JSON event" : "bad \(path)"
        case DecodingError.keyNotFound(let key, _):
            return "missing \(key.stringValue)"
        default:
            return "not a JSON event"
        }
    }
}
