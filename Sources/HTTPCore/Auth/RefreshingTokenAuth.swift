public import Foundation
public import HTTPTypes

/// Bearer tokens that renew themselves with a refresh token, safely under concurrency.
///
/// Every request carries `Authorization: Bearer <access token>`. The token is refreshed
/// - **before** a request, when it expires within ``refreshMargin`` (30 s by default) on the
///   client's clock, and
/// - **after** the server rejects it (a 401, or your ``AuthFailureSignal``); the request is then
///   replayed once with the new token.
///
/// However many requests need a refresh at the same moment, exactly one refresh request is
/// made; the others wait for it and continue with its token. A rejection of a request that
/// was sent with an older token than the current one is replayed with the current token
/// without refreshing again. If the refresh endpoint rejects the refresh token (a 4xx, or a
/// body that is not credentials), every waiting request fails with `auth_required` (exit 3)
/// and the strategy is **sign-in required**: later requests fail at once, without touching
/// the network, until ``setCredentials(_:)`` supplies new credentials. A refresh that fails
/// for a transient reason (network, 5xx, 429) fails the waiting requests with that retryable
/// error and leaves the refresh token in place, so a network blip never logs anyone out.
///
/// With a store, a refresh also coordinates with everyone else using the same stored
/// credentials: it runs inside the store's ``CredentialStore/withRefreshLock(_:)`` and first
/// reads the store again. When another process (or another strategy on the same store) has
/// renewed the credentials meanwhile, those are used and no refresh is sent, so a rotating
/// refresh token is never spent twice.
///
/// ```swift
/// let auth = RefreshingTokenAuth(
///     refresh: RefreshEndpoint(path: "oauth/token", extraFields: ["client_id": "my-app"]),
///     store: FileCredentialStore(url: credentialsFile)
/// )
/// var configuration = ClientConfiguration(baseURL: apiURL, auth: auth)
/// // after the user signs in:
/// await auth.setCredentials(TokenCredentials(accessToken: access, refreshToken: refresh, expiresAt: expiry))
/// ```
///
/// For OAuth 2 servers, the `HTTPCoreOAuth` product's refresher plugs in with
/// ``init(credentials:refresher:store:refreshMargin:authFailure:)``.
public final class RefreshingTokenAuth: AuthStrategy, RenewingAuthStrategy {
    /// How long before expiry a token is refreshed ahead of use.
    public let refreshMargin: Duration
    /// `Authorization`, plus the token fields (`access_token`, `refresh_token` and the
    /// refresher's own) as secret form and query names.
    public let redactor: Redactor

    private let refresher: any TokenRefresher
    private let store: (any CredentialStore)?
    /// The tokens this strategy last read from or wrote to the store, so a refresh can tell a
    /// renewal by someone else (adopt it) from a save of its own that failed (ignore the file).
    private let lastStored = Locked<TokenCredentials?>(nil)
    /// Counts ``setCredentials(_:)`` and ``signOut()``: a refresh saves its result only if
    /// neither came while it ran, so it never puts back tokens the app has replaced or removed.
    private let replacements = Locked<UInt64>(0)
    let failureSignal: AuthFailureSignal
    let state: SingleFlightCredential<TokenCredentials>

    /// Creates the strategy.
    ///
    /// - Parameters:
    ///   - credentials: The credentials to start with; `nil` loads them from `store` on first
    ///     use (and without either, requests fail with `auth_required` until
    ///     ``setCredentials(_:)``).
    ///   - refresh: Where and how to refresh.
    ///   - store: Where credentials persist; every refresh and ``setCredentials(_:)`` saves to
    ///     it, a rejected refresh token removes them.
    ///   - refreshMargin: Refresh ahead of use when the token expires within this margin.
    ///   - authFailure: Which responses mean "token rejected"; a 401 by default.
    ///   - decoder: Reads the refresh endpoint's response; OAuth's shape by default.
    public convenience init(
        credentials: TokenCredentials? = nil,
        refresh: RefreshEndpoint,
        store: (any CredentialStore)? = nil,
        refreshMargin: Duration = .seconds(30),
        authFailure: AuthFailureSignal = .unauthorized,
        decoder: CredentialsDecoder = .standard
    ) {
        self.init(
            credentials: credentials,
            refresher: EndpointRefresher(endpoint: refresh, decoder: decoder),
            store: store,
            refreshMargin: refreshMargin,
            authFailure: authFailure
        )
    }

    /// Creates the strategy with a refresher of your own (for example OAuth 2's, from
    /// `HTTPCoreOAuth`).
    ///
    /// - Parameters:
    ///   - credentials: The credentials to start with; `nil` loads them from `store` on first
    ///     use.
    ///   - refresher: Sends the refresh request and reads its answer.
    ///   - store: Where credentials persist and how refreshes coordinate with other processes.
    ///   - refreshMargin: Refresh ahead of use when the token expires within this margin.
    ///   - authFailure: Which responses mean "token rejected"; a 401 by default.
    public init(
        credentials: TokenCredentials? = nil,
        refresher: any TokenRefresher,
        store: (any CredentialStore)? = nil,
        refreshMargin: Duration = .seconds(30),
        authFailure: AuthFailureSignal = .unauthorized
    ) {
        self.refresher = refresher
        self.store = store
        self.refreshMargin = refreshMargin
        self.failureSignal = authFailure
        self.redactor = Redactor(secretQueryParameters: ["access_token", "refresh_token"]).merging(refresher.redactor)
        var loader: (@Sendable () async -> TokenCredentials?)?
        if let store {
            loader = { [lastStored] in
                let loaded = await store.load()
                lastStored.withLock { $0 = loaded }
                return loaded
            }
        }
        self.state = SingleFlightCredential(credentials, loader: loader)
    }

    /// The credentials in use (loading them from the store if this is the first use); `nil`
    /// when signed out or sign-in is required.
    public var credentials: TokenCredentials? {
        get async { try? await state.current().value }
    }

    /// Whether a rejected refresh token left the strategy waiting for new credentials.
    public var isSignInRequired: Bool {
        get async { await state.isBlocked }
    }

    /// Uses `credentials` from now on (after a sign-in) and saves them to the store; ends the
    /// sign-in-required state. A refresh still running is ignored when it finishes, and saves
    /// nothing over these.
    ///
    /// - Throws: The store's error; the credentials are used in memory regardless.
    public func setCredentials(_ credentials: TokenCredentials) async throws {
        replacements.withLock { $0 += 1 }
        await state.replace(with: credentials)
        // Under the refresh lock, so a refresh saving its result meanwhile cannot land after this.
        try await store?.withRefreshLock { [store, lastStored] in
            try await store?.save(credentials)
            lastStored.withLock { $0 = credentials }
        }
    }

    /// Forgets the credentials in memory and in the store; requests fail with `auth_required`
    /// until ``setCredentials(_:)``. The store is written under its refresh lock, after a
    /// refresh already running, which then saves nothing.
    ///
    /// - Throws: The store's error; the credentials are forgotten in memory regardless.
    public func signOut() async throws {
        replacements.withLock { $0 += 1 }
        await state.replace(with: nil)
        try await store?.withRefreshLock { [store, lastStored] in
            try await store?.remove()
            lastStored.withLock { $0 = nil }
        }
    }

    /// Adds `Authorization: Bearer`, refreshing first when the token is about to expire.
    ///
    /// - Throws: ``APIError/authRequired(_:)`` without credentials or while sign-in is
    ///   required; the refresh's error when a needed refresh failed and the old token has
    ///   already expired.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var snapshot = try await state.current(for: context)
        guard let credentials = snapshot.value else { throw Self.notSignedIn }
        if credentials.refreshToken != nil, credentials.expires(within: refreshMargin, of: context.timeSource.now()) {
            do {
                snapshot = try await state.renew(from: snapshot.generation, for: context, renewal(.expiry, context))
            } catch let error as APIError where error.code != .authRequired {
                // A transient failure while the old token still works: use it, and try the
                // refresh again on the next request. Not once the call's deadline has come.
                guard !credentials.expires(within: .zero, of: context.timeSource.now()), !context.deadlineHasPassed
                else { throw error }
            }
        }
        guard let token = snapshot.value?.accessToken else { throw Self.notSignedIn }
        var authorized = AuthorizedRequest(request: request, body: body, generation: snapshot.generation)
        authorized.request.headerFields[.authorization] = "Bearer \(token)"
        return authorized
    }

    private static let notSignedIn = APIError.authRequired(
        APIError.Details(message: "Not signed in: there are no credentials.", hint: "Sign in first.")
    )

    func renewal(
        _ trigger: AuthEvent.Trigger,
        _ context: AuthContext
    ) -> @Sendable (TokenCredentials?) async throws -> TokenCredentials {
        { [self] current in
            let replacementsAtStart = replacements.withLock { $0 }
            guard let store else { return try await refreshAndReport(current, trigger, context, replacementsAtStart) }
            return try await store.withRefreshLock {
                guard let renewed = await renewedElsewhere(than: current, in: store) else {
                    return try await refreshAndReport(current, trigger, context, replacementsAtStart)
                }
                // Renewed elsewhere long enough ago to have expired since (the fleet was idle):
                // its refresh token is the live one, so refresh from it rather than send a dead token.
                // Only an expired one: a token merely inside the refresh margin is adopted, or every
                // worker waiting on the lock would refresh again.
                guard renewed.refreshToken != nil, renewed.expires(within: .zero, of: context.timeSource.now())
                else { return renewed }
                return try await refreshAndReport(renewed, trigger, context, replacementsAtStart)
            }
        }
    }

    /// What the store holds when someone else renewed or replaced the credentials since this
    /// strategy last saw the store; `nil` when the refresh is this strategy's to make.
    ///
    /// A file older than the credentials in use (a save of ours that failed, or a file left from
    /// before credentials were handed to `init`) is not a renewal: it expires earlier.
    private func renewedElsewhere(
        than current: TokenCredentials?,
        in store: any CredentialStore
    ) async
        -> TokenCredentials?
    {
        guard let stored = await store.load() else { return nil }
        let seen = lastStored.withLock { $0 }
        if let seen, seen.hasSameTokens(as: stored) { return nil }
        if let current {
            if current.hasSameTokens(as: stored) { return nil }
            if let storedExpiry = stored.expiresAt, let currentExpiry = current.expiresAt, storedExpiry < currentExpiry
            {
                return nil
            }
        }
        lastStored.withLock { $0 = stored }
        return stored
    }

    private func refreshAndReport(
        _ current: TokenCredentials?,
        _ trigger: AuthEvent.Trigger,
        _ context: AuthContext,
        _ replacementsAtStart: UInt64
    ) async throws -> TokenCredentials {
        let started = context.timeSource.monotonicNow()
        do {
            guard let current, current.refreshToken != nil else {
                throw APIError.authRequired(
                    APIError.Details(
                        message: "The access token was rejected and there is no refresh token to renew it.",
                        hint: "Sign in again."
                    )
                )
            }
            let fresh = try await refresher.refresh(current, context: context).carryingForward(from: current)
            context.emit(
                context.event(
                    .refreshed,
                    trigger,
                    strategy: "RefreshingTokenAuth",
                    started: started,
                    validUntil: fresh.expiresAt
                )
            )
            if replacements.withLock({ $0 }) == replacementsAtStart {
                await persist(fresh, trigger: trigger, context: context)
            }
            return fresh
        } catch {
            let apiError = error as? APIError
            context.emit(
                context.event(
                    .refreshFailed,
                    trigger,
                    strategy: "RefreshingTokenAuth",
                    started: started,
                    error: apiError
                )
            )
            if apiError?.code == .authRequired, let current {
                await forget(current, trigger: trigger, context: context)
            }
            throw error
        }
    }

    private func persist(_ credentials: TokenCredentials, trigger: AuthEvent.Trigger, context: AuthContext) async {
        await updateStore(trigger: trigger, context: context) { store in
            try await store.save(credentials)
            lastStored.withLock { $0 = credentials }
        }
    }

    /// Removes the refused credentials from the store, unless someone else has stored others
    /// meanwhile: a stale copy must not erase a good sign-in.
    private func forget(_ refused: TokenCredentials, trigger: AuthEvent.Trigger, context: AuthContext) async {
        await updateStore(trigger: trigger, context: context) { store in
            if try await store.remove(ifStillMatching: refused) { lastStored.withLock { $0 = nil } }
        }
    }

    private func updateStore(
        trigger: AuthEvent.Trigger,
        context: AuthContext,
        _ update: (any CredentialStore) async throws -> Void
    ) async {
        guard let store else { return }
        let started = context.timeSource.monotonicNow()
        do {
            try await update(store)
        } catch {
            context.emit(
                context.event(
                    .storeFailed,
                    trigger,
                    strategy: "RefreshingTokenAuth",
                    started: started,
                    error: error as? APIError
                )
            )
        }
    }
}

extension RefreshingTokenAuth: CustomStringConvertible, CustomReflectable {
    /// The type name and margin; no credential is ever shown.
    public var description: String { "RefreshingTokenAuth(refreshMargin: \(refreshMargin))" }
    /// Only the margin, so `dump` shows no credential.
    public var customMirror: Mirror { Mirror(self, children: ["refreshMargin": refreshMargin]) }
}
