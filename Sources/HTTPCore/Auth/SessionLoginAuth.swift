public import Foundation
public import HTTPTypes

/// A session opened by a login call, whose values go with every request.
///
/// For APIs that authenticate with a session rather than a token: a login request (typically
/// user name and password or an API secret) returns session values — a session token, a
/// session key — that every later request carries as query parameters, headers or form
/// fields. Sessions last a fixed time; this strategy
/// - logs in on first use,
/// - logs in again **before** a request once the session is older than
///   `lifetime - renewalMargin` (for a 20-minute session with a 1-minute margin: after
///   19 minutes, on the client's clock),
/// - logs in again **after** the server signals an expired or invalid session (a 401, or your
///   ``AuthFailureSignal``, which may look inside a 200 body) and replays the request once.
///
/// However many requests need a login at the same moment, exactly one login call is made;
/// the others wait and use its session. With a `store`, strategies in other processes share
/// the session too: a login runs inside the store's ``CredentialStore/withRefreshLock(_:)`` and
/// first reads the store, so a fleet of workers on one shared store (`PostgresCredentialStore`)
/// logs in once per session lifetime rather than once per worker. A rejection of a request sent with an older session
/// than the current one is replayed without another login. A login that fails with
/// `auth_required` (wrong password) fails every waiting request and puts the strategy in a
/// sign-in-required state in which requests fail at once, so a bad password is not retried
/// until the account locks; ``reset()`` ends it.
///
/// The login closure sends its request with ``AuthContext/send(_:_:query:headers:body:)``
/// (straight to the transport, never through retry or auth) and returns the session:
///
/// ```swift
/// let auth = SessionLoginAuth(
///     valueNames: ["sessiontoken", "sessionkey", "apikey"],
///     secretNames: ["apipassword"],
///     lifetime: .seconds(20 * 60),
///     renewalMargin: .seconds(60)
/// ) { context in
///     let response = try await context.send(.post, "authenticate.lc",
///         body: .form(["apiuser": user, "apipassword": password]))
///     let body = try JSONValue(parsing: response.body)
///     guard body["status"]?.stringValue == "OKAY", let token = body["sessiontoken"]?.stringValue,
///         let key = body["sessionkey"]?.intValue
///     else { throw APIError.authRequired(.init(message: "The login was refused.")) }
///     return .init(["sessiontoken": token, "sessionkey": String(key), "apikey": apiKey])
/// }
/// ```
public final class SessionLoginAuth: AuthStrategy, RenewingAuthStrategy {
    /// What a login returns: the values to send and, when the API says, how long they last.
    public struct Session: Sendable, CustomStringConvertible, CustomReflectable {
        /// The values every request carries, in order.
        public var values: [(name: String, value: String)]
        /// The session's lifetime when it differs from the strategy's default.
        public var lifetime: Duration?

        /// Creates a session.
        public init(_ values: KeyValuePairs<String, String>, lifetime: Duration? = nil) {
            self.init(values: values.map { (name: $0.key, value: $0.value) }, lifetime: lifetime)
        }

        /// Creates a session.
        public init(values: [(name: String, value: String)], lifetime: Duration? = nil) {
            self.values = values
            self.lifetime = lifetime
        }

        /// The value names only; the values are never shown.
        public var description: String {
            "Session(\(values.map { "\($0.name): \(Redactor.placeholder)" }.joined(separator: ", ")))"
        }

        /// No children, so `dump` shows no session value.
        public var customMirror: Mirror { Mirror(self, children: [:]) }
    }

    /// The default session lifetime.
    public let lifetime: Duration
    /// How long before the end of its lifetime a session is replaced.
    public let renewalMargin: Duration
    /// Every session value name and extra secret name, as secret headers and query or form
    /// names.
    public let redactor: Redactor

    private let valueNames: Set<String>
    private let placement: CredentialPlacement
    let failureSignal: AuthFailureSignal
    private let login: @Sendable (AuthContext) async throws -> Session
    let store: (any CredentialStore)?
    let state = SingleFlightCredential<ActiveSession>(nil)

    /// Creates the strategy.
    ///
    /// - Parameters:
    ///   - valueNames: The names of every value a login may return. They are registered as
    ///     secret; a login returning any other name fails with `usage`, so nothing unredacted
    ///     is ever sent.
    ///   - secretNames: Other names to redact, such as the login's password field.
    ///   - placement: Where the values go: query parameters (the default), headers, or form
    ///     fields of form bodies.
    ///   - lifetime: How long a session lasts from the start of its login (20 minutes by
    ///     default); a ``Session/lifetime`` overrides it.
    ///   - renewalMargin: Log in again this long before the lifetime ends (1 minute by default).
    ///   - authFailure: Which responses mean "session expired or invalid"; a 401 by default.
    ///   - store: Where the session is shared with other processes (`nil`: kept in memory only).
    ///     It is stored as ``TokenCredentials`` whose access token holds the session's values, so
    ///     protect the store as you would the password.
    ///   - login: Opens a session.
    public init(
        valueNames: [String],
        secretNames: [String] = [],
        placement: CredentialPlacement = .query,
        lifetime: Duration = .seconds(20 * 60),
        renewalMargin: Duration = .seconds(60),
        authFailure: AuthFailureSignal = .unauthorized,
        store: (any CredentialStore)? = nil,
        login: @escaping @Sendable (AuthContext) async throws -> Session
    ) {
        self.store = store
        self.valueNames = Set(valueNames)
        self.placement = placement
        self.lifetime = lifetime
        self.renewalMargin = renewalMargin
        self.failureSignal = authFailure
        self.login = login
        var redactor = Redactor()
        for name in valueNames + secretNames {
            redactor.addSecretQueryParameter(name)
            if let field = HTTPField.Name(name) { redactor.addSecretHeader(field) }
        }
        self.redactor = redactor
    }

    /// Whether a refused login left the strategy waiting for ``reset()``.
    public var isSignInRequired: Bool {
        get async { await state.isBlocked }
    }

    /// Whether a session is open.
    public var hasSession: Bool {
        get async { await state.snapshot.value != nil }
    }

    /// Forgets the session and any sign-in-required state; the next request logs in.
    public func reset() async {
        await state.replace(with: nil)
    }

    /// Adds the session's values, logging in first when there is no session or it is due
    /// for renewal.
    ///
    /// - Throws: The login's error, or ``APIError/authRequired(_:)`` while sign-in is
    ///   required.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var snapshot = try await state.current(for: context)
        let now = context.timeSource.monotonicNow()
        if let session = snapshot.value {
            if now >= session.expiresAt - renewalMargin {
                do {
                    snapshot = try await state.renew(from: snapshot.generation, for: context, renewal(.expiry, context))
                } catch let error as APIError where error.code != .authRequired {
                    // A transient failure while the old session still works: use it, unless the
                    // call's deadline has come.
                    guard context.timeSource.monotonicNow() < session.expiresAt, !context.deadlineHasPassed
                    else { throw error }
                }
            }
        } else {
            snapshot = try await state.renew(from: snapshot.generation, for: context, renewal(.initial, context))
        }
        guard let session = snapshot.value else {
            throw APIError.authRequired(APIError.Details(message: "There is no session.", hint: "Log in again."))
        }
        var authorized = AuthorizedRequest(request: request, body: body, generation: snapshot.generation)
        for value in session.values {
            try authorized.add(value.name, value.value, placement: placement)
        }
        return authorized
    }

    func renewal(
        _ trigger: AuthEvent.Trigger,
        _ context: AuthContext
    ) -> @Sendable (ActiveSession?) async throws -> ActiveSession {
        let login = freshLogin(trigger, context)
        guard let store else { return login }
        return { [self] current in
            try await store.withRefreshLock {
                if let shared = await sharedSession(in: store, replacing: current, context: context) { return shared }
                let active = try await login(current)
                await share(active, in: store, trigger: trigger, context: context)
                return active
            }
        }
    }

    private func freshLogin(
        _ trigger: AuthEvent.Trigger,
        _ context: AuthContext
    ) -> @Sendable (ActiveSession?) async throws -> ActiveSession {
        { [login, lifetime, valueNames] _ in
            let started = context.timeSource.monotonicNow()
            do {
                let session: Session
                do {
                    session = try await login(context)
                } catch {
                    throw Self.loginError(error)
                }
                if let stray = session.values.first(where: { !valueNames.contains($0.name) }) {
                    throw APIError.usage(
                        "The login returned the session value \"\(stray.name)\", which is not among valueNames, so it could not be redacted."
                    )
                }
                let active = ActiveSession(
                    values: session.values.map { SessionValue(name: $0.name, value: $0.value) },
                    // From the start of the login: the server's clock started no later.
                    expiresAt: started + (session.lifetime ?? lifetime)
                )
                let wallExpiry = context.timeSource.now().addingTimeInterval(
                    (active.expiresAt - context.timeSource.monotonicNow()).seconds
                )
                let kind: AuthEvent.Kind = trigger == .expiry ? .renewed : .loggedIn
                context.emit(
                    context.event(kind, trigger, strategy: "SessionLoginAuth", started: started, validUntil: wallExpiry)
                )
                return active
            } catch {
                context.emit(
                    context.event(
                        .loginFailed,
                        trigger,
                        strategy: "SessionLoginAuth",
                        started: started,
                        error: error as? APIError
                    )
                )
                throw error
            }
        }
    }

    private static func loginError(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as TransportError:
            return APIError.network(
                APIError.Details(message: "The login request failed: \(error.message)", cause: error)
            )
        default:
            // The login closure's own error may quote what it parsed; keep only its type.
            return APIError.apiError(
                APIError.Details(message: "The login failed (\(type(of: error))).", hint: "Try again later.")
            )
        }
    }
}

extension SessionLoginAuth: CustomStringConvertible, CustomReflectable {
    /// The type, lifetime and margin; no session value is ever shown.
    public var description: String {
        "SessionLoginAuth(lifetime: \(lifetime), renewalMargin: \(renewalMargin))"
    }
    /// Only the lifetime and margin, so `dump` shows no session value.
    public var customMirror: Mirror {
        Mirror(self, children: ["lifetime": lifetime, "renewalMargin": renewalMargin])
    }
}

/// One value of an open session.
struct SessionValue: Sendable, Hashable {
    var name: String
    var value: String
}

/// An open session: its values and when it ends on the client's monotonic clock.
struct ActiveSession: Sendable {
    var values: [SessionValue]
    var expiresAt: Duration
}
