import Foundation

/// Credentials of some kind that are renewed at most once at a time.
///
/// However many tasks ask for a renewal at once, one runs; the others wait for it and share
/// its result. Each successful renewal, and each ``replace(with:)``, bumps ``Snapshot/generation``,
/// so a task holding an older generation knows its credentials were already replaced and does
/// not renew again. A renewal rejected with `auth_required` blocks the credentials: every
/// later request fails fast with ``blockedError`` until ``replace(with:)`` supplies new ones.
///
/// The first load from a store is a flight too. The load or renewal runs in its own task: a caller
/// that is cancelled stops waiting at once (with `CancellationError`), and one whose call reaches
/// its deadline stops waiting then (with ``APIError/network(_:)``), but the flight continues for
/// the others.
actor SingleFlightCredential<Value: Sendable> {
    struct Snapshot: Sendable {
        var value: Value?
        var generation: UInt64
    }

    private var value: Value?
    private var generation: UInt64 = 0
    private var blockedError: APIError?
    /// The load or renewal running, with everyone waiting for it.
    private struct Flight {
        var id: UInt64
        var isLoad = false
        var waiters: [UInt64: CheckedContinuation<Snapshot, any Error>] = [:]
    }

    private var inFlight: Flight?
    private var nextID: UInt64 = 0
    private var loader: (@Sendable () async -> Value?)?

    /// Creates the state with `value`, or with what `loader` returns on first use.
    init(_ value: Value?, loader: (@Sendable () async -> Value?)? = nil) {
        self.value = value
        self.loader = value == nil ? loader : nil
    }

    /// The current credentials without waiting for anything.
    var snapshot: Snapshot { Snapshot(value: value, generation: generation) }

    /// Whether requests fail fast until new credentials are supplied.
    var isBlocked: Bool { blockedError != nil }

    /// The current credentials, after any renewal in progress; a wait for it ends at the
    /// deadline of `context`'s call, if it has one.
    ///
    /// - Throws: The blocking error, the failure of the renewal it waited for, or
    ///   ``APIError/network(_:)`` when the call's deadline came first.
    func current(for context: AuthContext? = nil) async throws -> Snapshot {
        try await loadIfNeeded(until: context)
        if inFlight != nil { return try await join(until: context) }
        if let blockedError { throw blockedError }
        return snapshot
    }

    /// Renews the credentials unless they already changed since `generation`, joining a
    /// renewal that is already running; the wait for it ends at the deadline of `context`'s call,
    /// if it has one.
    ///
    /// - Parameter operation: Gets the current value and returns its replacement; throwing
    ///   `auth_required` blocks the credentials, any other error leaves them as they are.
    /// - Throws: The blocking error, the renewal's failure, or ``APIError/network(_:)`` when the
    ///   call's deadline came first.
    func renew(
        from generation: UInt64,
        for context: AuthContext? = nil,
        _ operation: @escaping @Sendable (Value?) async throws -> Value
    ) async throws -> Snapshot {
        try await loadIfNeeded(until: context)
        if inFlight != nil { return try await join(until: context) }
        if let blockedError { throw blockedError }
        guard generation == self.generation else { return snapshot }
        nextID += 1
        let id = nextID
        let current = value
        inFlight = Flight(id: id)
        Task { await self.run(id: id, current: current, operation: operation) }
        return try await join(until: context)
    }

    /// Replaces the credentials (`nil` signs out), unblocks, and detaches any renewal in
    /// progress: its result is dropped and its waiters get these credentials instead.
    func replace(with value: Value?) {
        loader = nil
        self.value = value
        generation += 1
        blockedError = nil
        let waiters = inFlight?.waiters.values.map { $0 } ?? []
        inFlight = nil
        for waiter in waiters { waiter.resume(returning: snapshot) }
    }

    /// Waits for the load or renewal in flight; a cancelled caller stops waiting at once, and one
    /// whose call has a deadline stops waiting when it comes.
    private func join(until context: AuthContext?) async throws -> Snapshot {
        guard let flightID = inFlight?.id, let isLoad = inFlight?.isLoad else { return snapshot }
        if context?.deadlineHasPassed == true { throw Self.deadlinePassed(loading: isLoad) }
        nextID += 1
        let waiterID = nextID
        // The timer only ever runs while a caller with a deadline waits, never on the common path.
        var timer: Task<Void, Never>?
        if let context, let deadline = context.deadline {
            timer = Task {
                try? await context.timeSource.sleep(for: deadline - context.timeSource.monotonicNow())
                guard !Task.isCancelled else { return }
                self.giveUp(waiterID, throwing: Self.deadlinePassed(loading: isLoad))
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Snapshot, any Error>) in
                guard !Task.isCancelled, inFlight?.id == flightID else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                inFlight?.waiters[waiterID] = continuation
            }
        } onCancel: {
            Task { await self.giveUp(waiterID, throwing: CancellationError()) }
        }
    }

    /// Ends one caller's wait with `error`, if it is still waiting.
    private func giveUp(_ waiterID: UInt64, throwing error: any Error) {
        inFlight?.waiters.removeValue(forKey: waiterID)?.resume(throwing: error)
    }

    /// The request was not sent with renewed credentials (nor, after a rejection, carried out),
    /// so the caller may safely try again with a later deadline.
    private static func deadlinePassed(loading: Bool) -> APIError {
        let (what, checking) =
            loading
            ? ("loaded from their store", "the credential store: the load")
            : ("renewed", "the sign-in server: the renewal")
        return .network(
            APIError.Details(
                message: "The call's deadline came while the credentials were being \(what), "
                    + "so the request was not sent with them.",
                hint: "Raise the deadline, or check \(checking) is still running for other calls."
            )
        )
    }

    private func run(
        id: UInt64,
        current: Value?,
        operation: @Sendable (Value?) async throws -> Value
    ) async {
        let result: Result<Value, any Error>
        do {
            result = .success(try await operation(current))
        } catch {
            result = .failure(error)
        }
        // Detached by replace(with:), which already answered the waiters: drop the result.
        guard let flight = inFlight, flight.id == id else { return }
        inFlight = nil
        let outcome: Result<Snapshot, any Error>
        switch result {
        case .success(let renewed):
            value = renewed
            generation += 1
            outcome = .success(snapshot)
        case .failure(let error):
            if let apiError = error as? APIError, apiError.code == .authRequired {
                value = nil
                generation += 1
                var blocked = apiError.details
                blocked.message = "Sign-in required: \(apiError.message)"
                blocked.hint = blocked.hint ?? "Supply new credentials."
                blocked.cause = apiError
                blockedError = .authRequired(blocked)
            }
            outcome = .failure(error)
        }
        for waiter in flight.waiters.values { waiter.resume(with: outcome) }
    }

    /// Starts the first load from the store as the flight everyone joins, and waits for it as
    /// for a renewal: a store that hangs holds no caller past its deadline or its cancellation.
    /// Returns once no load is in flight, so a caller that came to renew goes on to renew.
    private func loadIfNeeded(until context: AuthContext?) async throws {
        if let loader {
            self.loader = nil
            nextID += 1
            let id = nextID
            inFlight = Flight(id: id, isLoad: true)
            Task {
                let loaded = await loader()
                self.finishLoad(id: id, loaded: loaded)
            }
        }
        while inFlight?.isLoad == true { _ = try await join(until: context) }
    }

    private func finishLoad(id: UInt64, loaded: Value?) {
        // Detached by replace(with:), which already answered the waiters: drop the result.
        guard let flight = inFlight, flight.id == id else { return }
        inFlight = nil
        if value == nil { value = loaded }
        for waiter in flight.waiters.values { waiter.resume(returning: snapshot) }
    }
}
