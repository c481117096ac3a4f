import Foundation
import HTTPCore

/// Hands callbacks from the server's request tasks to the one sign-in waiting for them.
///
/// A callback that arrives before anyone waits is held until someone does (or the listener
/// closes), so a fast browser is never turned away. The first callback the waiter accepts is
/// the only one ever taken; later ones are refused.
final class CallbackGate: Sendable {
    private struct Waiter: Sendable {
        let id: UInt64
        let accept: @Sendable (URL) -> Bool
        let continuation: CheckedContinuation<URL, any Error>
    }

    private struct Offer: Sendable {
        let callback: URL
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State: Sendable {
        var waiter: Waiter?
        var offers: [Offer] = []
        var taken = false
        var closed = false
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Offers `callback` to the waiter, waiting for one if there is none yet; `true` when it was
    /// taken.
    func offer(_ callback: URL) async -> Bool {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                guard !state.taken, !state.closed else { return continuation.resume(returning: false) }
                guard let waiter = state.waiter else {
                    state.offers.append(Offer(callback: callback, continuation: continuation))
                    return
                }
                guard waiter.accept(callback) else { return continuation.resume(returning: false) }
                state.taken = true
                state.waiter = nil
                waiter.continuation.resume(returning: callback)
                continuation.resume(returning: true)
            }
        }
    }

    /// Waits for a callback `accept` takes, looking first at those already waiting.
    ///
    /// - Throws: `CancellationError` when the task is cancelled or the gate closed;
    ///   ``HTTPCore/APIError/usage(_:)`` when another wait is in progress or a callback was
    ///   already taken.
    func wait(accept: @escaping @Sendable (URL) -> Bool) async throws -> URL {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    guard !state.closed, !Task.isCancelled else {
                        return continuation.resume(throwing: CancellationError())
                    }
                    guard !state.taken, state.waiter == nil else {
                        return continuation.resume(
                            throwing: APIError.usage(
                                "This listener already has, or already took, a sign-in's callback."
                            )
                        )
                    }
                    while !state.offers.isEmpty {
                        let offer = state.offers.removeFirst()
                        guard accept(offer.callback) else {
                            offer.continuation.resume(returning: false)
                            continue
                        }
                        state.taken = true
                        offer.continuation.resume(returning: true)
                        for refused in state.offers { refused.continuation.resume(returning: false) }
                        state.offers = []
                        return continuation.resume(returning: offer.callback)
                    }
                    state.waiter = Waiter(id: id, accept: accept, continuation: continuation)
                }
            }
        } onCancel: {
            state.withLock { state in
                guard let waiter = state.waiter, waiter.id == id else { return }
                state.waiter = nil
                waiter.continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Ends the wait in progress with `CancellationError` and refuses every callback from now on.
    func close() {
        state.withLock { state in
            state.closed = true
            state.waiter?.continuation.resume(throwing: CancellationError())
            state.waiter = nil
            for offer in state.offers { offer.continuation.resume(returning: false) }
            state.offers = []
        }
    }
}
