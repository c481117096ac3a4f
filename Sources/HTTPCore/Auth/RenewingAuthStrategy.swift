import Foundation

/// A strategy whose credentials one shared renewal replaces (a token refresh, a session login):
/// it recognises a rejection by its configured signal and answers it by renewing once for
/// everyone.
protocol RenewingAuthStrategy: AuthStrategy {
    associatedtype Credential: Sendable

    /// Whether a response means the credentials were rejected.
    var failureSignal: AuthFailureSignal { get }
    /// The credentials and the single renewal in flight.
    var state: SingleFlightCredential<Credential> { get }

    /// The renewal to run for `trigger`: gets the current credentials and returns new ones.
    func renewal(
        _ trigger: AuthEvent.Trigger,
        _ context: AuthContext
    ) -> @Sendable (Credential?) async throws -> Credential
}

extension RenewingAuthStrategy {
    /// The configured signal (a 401 by default).
    public func isAuthFailure(_ response: TransportResponse) -> Bool {
        failureSignal.matches(response)
    }

    /// Renews once for everyone (or not at all when the rejected credentials were already
    /// replaced) and asks for a replay.
    ///
    /// - Throws: ``APIError/authRequired(_:)`` when the credentials cannot be renewed (a
    ///   rejected refresh token, a refused login); the renewal's error when it failed for
    ///   another reason.
    public func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery {
        let snapshot = try await state.renew(from: authorized.generation, for: context, renewal(.rejected, context))
        return snapshot.value == nil ? .deliver : .replay
    }
}
