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
/// ```swift
/// let auth = RefreshingTokenAuth(
///     refresh: RefreshEndpoint(path: "oauth/token", extraFields: ["client_id": "my-app"]),
///     store: FileCredentialStore(url: credentialsFile)
/// )
/// var configuration = ClientConfiguration(baseURL: apiURL, auth: auth)
/// // after the user signs in:
/// await auth.setCredentials(TokenCredentials(accessToken: access, refreshToken: refresh, expiresAt: expiry))
/// ```
public final class RefreshingTokenAuth: AuthStrategy {
    /// How long before expiry a token is refreshed ahead of use.
    public let refreshMargin: Duration
    /// `Authorization`, plus the refresh endpoint's token fields as secret form and query
    /// names.
    public let redactor: Redactor

    private let endpoint: RefreshEndpoint
    private let decoder: CredentialsDecoder
    private let store: (any CredentialStore)?
    private let failureSignal: AuthFailureSignal
    private let state: SingleFlightCredential<TokenCredentials>

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
    public init(
        credentials: TokenCredentials? = nil,
        refresh: RefreshEndpoint,
        store: (any CredentialStore)? = nil,
        refreshMargin: Duration = .seconds(30),
        authFailure: AuthFailureSignal = .unauthorized,
        decoder: CredentialsDecoder = .standard
    ) {
        self.endpoint = refresh
        self.store = store
        self.refreshMargin = refreshMargin
        self.failureSignal = authFailure
        self.decoder = decoder
        var redactor = Redactor()
        for name in Set(["access_token", "refresh_token", refresh.refreshTokenField]) {
            redactor.addSecretQueryParameter(name)
        }
        self.redactor = redactor
        var loader: (@Sendable () async -> TokenCredentials?)?
        if let store { loader = { await store.load() } }
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
    /// sign-in-required state. A refresh still running is ignored when it finishes.
    ///
    /// - Throws: The store's error; the credentials are used in memory regardless.
    public func setCredentials(_ credentials: TokenCredentials) async throws {
        await state.replace(with: credentials)
        try await store?.save(credentials)
    }

    /// Forgets the credentials in memory and in the store; requests fail with `auth_required`
    /// until ``setCredentials(_:)``.
    ///
    /// - Throws: The store's error; the credentials are forgotten in memory regardless.
    public func signOut() async throws {
        await state.replace(with: nil)
        try await store?.remove()
    }

    /// Adds `Authorization: Bearer`, refreshing first when the token is about to expire.
    ///
    /// - Throws: ``APIError/authRequired(_:)`` without credentials or while sign-in is
    ///   required; the refresh's error when a needed refresh failed and the old token has
    ///   already expired.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var snapshot = try await state.current()
        guard let credentials = snapshot.value else { throw Self.notSignedIn }
        if credentials.refreshToken != nil, credentials.expires(within: refreshMargin, of: context.timeSource.now()) {
            do {
                snapshot = try await state.renew(from: snapshot.generation, refreshOperation(.expiry, context))
            } catch let error as APIError where error.code != .authRequired {
                // A transient failure while the old token still works: use it, and try the
                // refresh again on the next request.
                guard !credentials.expires(within: .zero, of: context.timeSource.now()) else { throw error }
            }
        }
        guard let token = snapshot.value?.accessToken else { throw Self.notSignedIn }
        var authorized = AuthorizedRequest(request: request, body: body, generation: snapshot.generation)
        authorized.request.headerFields[.authorization] = "Bearer \(token)"
        return authorized
    }

    /// The configured signal (a 401 by default).
    public func isAuthFailure(_ response: TransportResponse) -> Bool {
        failureSignal.matches(response)
    }

    /// Refreshes once for everyone (or not at all when the rejected token was already
    /// replaced) and asks for a replay.
    ///
    /// - Throws: ``APIError/authRequired(_:)`` when the refresh token was rejected or there is
    ///   none; the refresh's error when it failed for another reason.
    public func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery {
        let snapshot = try await state.renew(from: authorized.generation, refreshOperation(.rejected, context))
        return snapshot.value == nil ? .deliver : .replay
    }

    private static let notSignedIn = APIError.authRequired(
        APIError.Details(message: "Not signed in: there are no credentials.", hint: "Sign in first.")
    )

    private func refreshOperation(
        _ trigger: AuthEvent.Trigger,
        _ context: AuthContext
    ) -> @Sendable (TokenCredentials?) async throws -> TokenCredentials {
        { [endpoint, decoder, store] current in
            let started = context.timeSource.monotonicNow()
            do {
                let fresh = try await Self.refresh(current, endpoint: endpoint, decoder: decoder, context: context)
                context.emit(
                    context.event(
                        .refreshed,
                        trigger,
                        strategy: "RefreshingTokenAuth",
                        started: started,
                        validUntil: fresh.expiresAt
                    )
                )
                await Self.persist(fresh, in: store, trigger: trigger, context: context)
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
                if apiError?.code == .authRequired {
                    await Self.persist(nil, in: store, trigger: trigger, context: context)
                }
                throw error
            }
        }
    }

    private static func refresh(
        _ current: TokenCredentials?,
        endpoint: RefreshEndpoint,
        decoder: CredentialsDecoder,
        context: AuthContext
    ) async throws -> TokenCredentials {
        guard let refreshToken = current?.refreshToken else {
            throw APIError.authRequired(
                APIError.Details(
                    message: "The access token was rejected and there is no refresh token to renew it.",
                    hint: "Sign in again."
                )
            )
        }
        let sentAt = context.timeSource.now()
        let response: TransportResponse
        do {
            let (request, body) = try context.makeRequest(
                endpoint.method,
                endpoint.path,
                headers: endpoint.headers,
                body: endpoint.body(refreshToken)
            )
            response = try await context.send(request, body: body)
        } catch let error as APIError {
            throw error
        } catch {
            // Cancellation included: the refresh is shared, so a stop here is a failure for
            // everyone waiting, but not a reason to discard the refresh token.
            var details = APIError.Details(
                message: "The token refresh request failed: \((error as? TransportError)?.message ?? "no response").",
                hint: "Check the connection and try again."
            )
            details.cause = error as? TransportError
            throw APIError.network(details)
        }
        let status = response.response.status.code
        switch status {
        case 200..<300:
            do {
                var fresh = try decoder.decode(response.body, sentAt)
                // OAuth servers may omit the refresh token when it stays the same.
                if fresh.refreshToken == nil { fresh.refreshToken = refreshToken }
                return fresh
            } catch {
                throw APIError.authRequired(
                    APIError.Details(
                        message: "The token refresh response did not contain credentials.",
                        hint: "Sign in again.",
                        httpStatus: status
                    )
                )
            }
        case 408, 429, 500...:
            let code: APIError.Code = status == 429 ? .rateLimit : (status == 408 ? .network : .apiError)
            throw APIError(
                code,
                APIError.Details(
                    message: "The token refresh failed with HTTP \(status); the credentials are kept.",
                    hint: "Try again later.",
                    httpStatus: status
                )
            )
        default:
            let reason = ErrorBodyFields(body: response.body).message.map { " (\(Self.shortCode($0)))" } ?? ""
            throw APIError.authRequired(
                APIError.Details(
                    message: "The refresh token was rejected with HTTP \(status)\(reason).",
                    hint: "Sign in again.",
                    httpStatus: status
                )
            )
        }
    }

    /// An OAuth error code such as `invalid_grant`, or nothing: a free-text message from the
    /// server could quote the token it rejected.
    private static func shortCode(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz_")
        guard text.count <= 40, text.allSatisfy({ allowed.contains($0) }) else { return "rejected" }
        return text
    }

    private static func persist(
        _ credentials: TokenCredentials?,
        in store: (any CredentialStore)?,
        trigger: AuthEvent.Trigger,
        context: AuthContext
    ) async {
        guard let store else { return }
        let started = context.timeSource.monotonicNow()
        do {
            if let credentials { try await store.save(credentials) } else { try await store.remove() }
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

/// Where and how ``RefreshingTokenAuth`` refreshes its token.
///
/// The default is OAuth 2's refresh grant: `POST` with the form body
/// `grant_type=refresh_token&refresh_token=…`. JSON bodies, other field names, extra fields
/// (`client_id`) and fully custom bodies are configurable.
public struct RefreshEndpoint: Sendable {
    /// How the refresh request's fields are encoded.
    public enum BodyEncoding: Sendable, Hashable {
        /// `application/x-www-form-urlencoded`.
        case form
        /// A JSON object of strings.
        case json
    }

    /// A path relative to the client's base URL, or an absolute URL (which must be https,
    /// unless loopback).
    public var path: String
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// Extra headers, for example a client credential (registered as secret if it is one).
    public var headers: HTTPFields
    /// The field that carries the refresh token, registered as secret.
    public var refreshTokenField: String
    /// Builds the body from the refresh token.
    public var body: @Sendable (_ refreshToken: String) -> RequestBody

    /// A refresh sending the refresh token and `extraFields` as a form or JSON body.
    ///
    /// - Parameters:
    ///   - path: The endpoint, relative or absolute.
    ///   - method: `POST` by default.
    ///   - encoding: ``BodyEncoding/form`` (the OAuth default) or ``BodyEncoding/json``.
    ///   - refreshTokenField: The refresh token's field name.
    ///   - extraFields: Sent along, in order; `grant_type=refresh_token` by default.
    ///   - headers: Extra headers.
    public init(
        path: String,
        method: HTTPRequest.Method = .post,
        encoding: BodyEncoding = .form,
        refreshTokenField: String = "refresh_token",
        extraFields: KeyValuePairs<String, String> = ["grant_type": "refresh_token"],
        headers: HTTPFields = [:]
    ) {
        let fields = extraFields.map { ($0.key, $0.value) }
        self.init(path: path, method: method, refreshTokenField: refreshTokenField, headers: headers) { token in
            let all = fields + [(refreshTokenField, token)]
            switch encoding {
            case .form:
                return .form(QueryParameters(all.map { ($0.0, $0.1 as (any QueryValueConvertible)?) }))
            case .json:
                return .json(.object(Dictionary(all.map { ($0.0, JSONValue.string($0.1)) }) { _, last in last }))
            }
        }
    }

    /// A refresh with a body of your own making.
    public init(
        path: String,
        method: HTTPRequest.Method = .post,
        refreshTokenField: String = "refresh_token",
        headers: HTTPFields = [:],
        body: @escaping @Sendable (_ refreshToken: String) -> RequestBody
    ) {
        self.path = path
        self.method = method
        self.headers = headers
        self.refreshTokenField = refreshTokenField
        self.body = body
    }
}
