/// Which event ids one process is handling and has handled, over a bounded window: the
/// receiver's default ledger.
///
/// A delivery claims its id before its handlers run. A second delivery of an id in flight waits
/// for the first: if the first succeeds it is a duplicate, if it fails the waiter claims the id
/// itself, as a redelivery would. So ``claim(_:)`` never answers
/// ``WebhookClaimOutcome/inFlightElsewhere``. Only successes are remembered, and only the most
/// recent `capacity` of them, so memory stays bounded however long the receiver runs.
public actor InMemoryDeliveryLedger: WebhookDeliveryLedger {
    private enum State {
        case inFlight([CheckedContinuation<Bool, Never>])
        case handled
    }

    private let capacity: Int
    private var states: [WebhookEventID: State] = [:]
    private var handledOrder: [WebhookEventID] = []
    private var oldest = 0

    /// A ledger remembering the last `capacity` handled events (at least one).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// Claims `id`, waiting while this process handles it already.
    public func claim(_ id: WebhookEventID) async -> WebhookClaimOutcome {
        while true {
            switch states[id] {
            case nil:
                states[id] = .inFlight([])
                // One claim per id at a time in one process: the id itself tells it apart.
                return .claimed(WebhookClaim(eventID: id, token: ""))
            case .handled?:
                return .alreadyHandled
            case .inFlight?:
                let handled = await withCheckedContinuation { continuation in
                    if case .inFlight(var waiters)? = states[id] {
                        waiters.append(continuation)
                        states[id] = .inFlight(waiters)
                    } else {
                        continuation.resume(returning: states[id] != nil)
                    }
                }
                if handled { return .alreadyHandled }
            }
        }
    }

    /// Remembers the event as handled and wakes the deliveries waiting on it (duplicates now).
    public func markHandled(_ claim: WebhookClaim) {
        finish(claim.eventID, handled: true)
    }

    /// Forgets the claim and wakes one of the deliveries waiting on it to claim it.
    public func release(_ claim: WebhookClaim) {
        finish(claim.eventID, handled: false)
    }

    /// Records the outcome for a claimed `id` and wakes the deliveries waiting on it.
    private func finish(_ id: WebhookEventID, handled: Bool) {
        guard case .inFlight(let waiters)? = states[id] else { return }
        if handled {
            states[id] = .handled
            remember(id)
        } else {
            states[id] = nil
        }
        for waiter in waiters { waiter.resume(returning: handled) }
    }

    /// Whether `id` is remembered as handled.
    public func isHandled(_ id: WebhookEventID) -> Bool {
        if case .handled? = states[id] { return true }
        return false
    }

    private func remember(_ id: WebhookEventID) {
        handledOrder.append(id)
        while handledOrder.count - oldest > capacity {
            states[handledOrder[oldest]] = nil
            oldest += 1
        }
        // Drop the forgotten prefix now and then, so the array does not grow forever.
        if oldest > capacity {
            handledOrder.removeFirst(oldest)
            oldest = 0
        }
    }
}
