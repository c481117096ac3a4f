/// Which event ids are being handled and which were handled, over a bounded window.
///
/// A delivery claims its id before its handlers run. A second delivery of an id in flight waits
/// for the first: if the first succeeds it is a duplicate, if it fails the waiter claims the id
/// itself, as a redelivery would. Only successes are remembered, and only the most recent
/// `capacity` of them, so memory stays bounded however long the receiver runs.
actor DeliveryLedger {
    private enum State {
        case inFlight([CheckedContinuation<Bool, Never>])
        case handled
    }

    private let capacity: Int
    private var states: [WebhookEventID: State] = [:]
    private var handledOrder: [WebhookEventID] = []
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// `true` when the caller now owns `id` and must ``finish(_:handled:)`` it; `false` when the
    /// event was handled already.
    func claim(_ id: WebhookEventID) async -> Bool {
        while true {
            switch states[id] {
            case nil:
                states[id] = .inFlight([])
                return true
            case .handled?:
                return false
            case .inFlight?:
                let handled = await withCheckedContinuation { continuation in
                    if case .inFlight(var waiters)? = states[id] {
                        waiters.append(continuation)
                        states[id] = .inFlight(waiters)
                    } else {
                        continuation.resume(returning: states[id] != nil)
                    }
                }
                if handled { return false }
            }
        }
    }

    /// Records the outcome for a claimed `id` and wakes the deliveries waiting on it.
    func finish(_ id: WebhookEventID, handled: Bool) {
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
    func isHandled(_ id: WebhookEventID) -> Bool {
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
