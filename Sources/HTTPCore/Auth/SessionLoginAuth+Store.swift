import Foundation

extension SessionLoginAuth {
    /// The session another process stored, when it is not `current` (which is due or was
    /// rejected) and lasts beyond the renewal margin; `nil` when this strategy must log in.
    func sharedSession(
        in store: any CredentialStore,
        replacing current: ActiveSession?,
        context: AuthContext
    ) async -> ActiveSession? {
        guard let stored = await store.load(),
            let shared = ActiveSession(
                stored: stored,
                now: context.timeSource.now(),
                at: context.timeSource.monotonicNow()
            )
        else { return nil }
        if let current, current.values == shared.values { return nil }
        guard context.timeSource.monotonicNow() < shared.expiresAt - renewalMargin else { return nil }
        return shared
    }

    /// Stores `session` for the other processes; a failure is reported and the session is used
    /// here regardless.
    func share(
        _ session: ActiveSession,
        in store: any CredentialStore,
        trigger: AuthEvent.Trigger,
        context: AuthContext
    )
        async
    {
        let started = context.timeSource.monotonicNow()
        do {
            try await store.save(session.stored(now: context.timeSource.now(), at: started))
        } catch {
            context.emit(
                context.event(
                    .storeFailed,
                    trigger,
                    strategy: "SessionLoginAuth",
                    started: started,
                    error: error as? APIError
                )
            )
        }
    }
}

extension ActiveSession {
    /// The token type that marks stored credentials as a session.
    static let storedType = "session"

    /// A session read back from ``TokenCredentials`` written by ``stored(now:at:)``, its expiry
    /// moved to this process's monotonic clock; `nil` for credentials that are not a session.
    init?(stored: TokenCredentials, now: Date, at monotonicNow: Duration) {
        guard stored.tokenType == Self.storedType, let expiry = stored.expiresAt,
            let pairs = try? JSONDecoder().decode([[String]].self, from: Data(stored.accessToken.utf8)),
            pairs.allSatisfy({ $0.count == 2 }),
            // A tampered or corrupt expiry is no session, not a trap in `Duration.seconds`.
            case let remaining = expiry.timeIntervalSince(now), remaining.isFinite, abs(remaining) < 1e9
        else { return nil }
        values = pairs.map { SessionValue(name: $0[0], value: $0[1]) }
        expiresAt = monotonicNow + .seconds(remaining)
    }

    /// The session as credentials: its values, as JSON, in the access token, and its expiry on
    /// the wall clock, which processes share.
    func stored(now: Date, at monotonicNow: Duration) -> TokenCredentials {
        let pairs = values.map { [$0.name, $0.value] }
        let text = (try? JSONEncoder().encode(pairs)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return TokenCredentials(
            accessToken: text,
            expiresAt: now.addingTimeInterval((expiresAt - monotonicNow).seconds),
            tokenType: Self.storedType
        )
    }
}
