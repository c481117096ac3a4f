import APISandbox
import Crypto
public import Foundation
import HTTPCore

/// The sandbox's authorization servers: Launchpad, and the resource-first server Basecamp is
/// moving to, issuing real codes and tokens that the sandbox's API then accepts.
///
/// ``BasecampSandboxModule`` mounts one (a default one unless told otherwise), so every
/// Basecamp sandbox can be signed in to:
///
/// | route | plays |
/// |---|---|
/// | `GET /launchpad/authorization/new` | Launchpad's authorize page: approves at once, redirects to the loopback `redirect_uri` with `code` and `state` |
/// | `POST /launchpad/authorization/token` | Launchpad's token endpoint, `type=web_server`/`type=refresh` or `grant_type=…`; a refresh repeats the `redirect_uri` |
/// | `GET /launchpad/authorization.json` | identity, the sandbox's Basecamp account (`bc3`) and a HEY account |
/// | `GET /.well-known/oauth-protected-resource` | RFC 9728 for the API: the resource-first issuer and Launchpad |
/// | `GET /.well-known/oauth-authorization-server` | RFC 8414 for the resource-first issuer (the sandbox's origin) |
/// | `GET /oauth/authorize` | authorize with PKCE S256 required; adds `iss` to the redirect |
/// | `POST /oauth/token` | standard grants, device code included; tokens carry `token_type` and any `resource` |
/// | `POST /oauth/device_authorization` | RFC 8628 codes, approved after a few polls |
///
/// Codes live 10 minutes and are single-use; PKCE is verified; a registered client's secret is checked in constant
/// time. Refresh tokens rotate (unless ``SandboxAuthorizationOptions/rotatesRefreshTokens`` is off): each works once,
/// and a spent, revoked or unknown one answers `400 invalid_grant`. A token bound to a `resource` must be refreshed with
/// that `resource` (`400 invalid_request` otherwise), and refresh answers leave `resource` out, as real servers may.
/// ``refreshRequests`` counts refresh grants received, so a test can assert that exactly one reached the server.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class BasecampSandboxAuthorization: Sendable {
    /// How the servers behave.
    public let options: SandboxAuthorizationOptions

    let records: Locked<AuthorizationRecords>
    let now: @Sendable () -> Date

    /// Creates the servers.
    ///
    /// - Parameters:
    ///   - options: Lifetimes, clients, strictness and the state file.
    ///   - now: The wall clock codes and tokens expire on; tests may pass their own.
    public init(
        options: SandboxAuthorizationOptions = SandboxAuthorizationOptions(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.options = options
        self.now = now
        let saved = try? options.stateFile.flatMap {
            try SandboxStateFile($0).load(AuthorizationRecords.self, version: AuthorizationRecords.currentVersion)
        }
        self.records = Locked(saved ?? AuthorizationRecords())
    }

    /// How many refresh grant requests have reached the token endpoints, granted or not.
    public var refreshRequests: Int { records.withLock { $0.refreshRequests } }

    /// The access tokens issued so far that still work.
    public var liveAccessTokens: [String] {
        let now = now()
        return records.withLock { $0.accessTokens.filter { !$0.value.revoked && $0.value.expiresAt > now }.map(\.key) }
    }

    /// Makes every access token issued so far fail with 401, as a server-side revocation would;
    /// their refresh tokens still work.
    public func revokeAccessTokens() {
        update { records in
            for token in records.accessTokens.keys { records.accessTokens[token]?.revoked = true }
        }
    }

    /// Makes every refresh token issued so far answer `invalid_grant`.
    public func revokeRefreshTokens() {
        update { records in
            for token in records.refreshTokens.keys { records.refreshTokens[token]?.isUsable = false }
        }
    }

    /// What the API thinks of a bearer token.
    public enum TokenStatus: Sendable, Hashable {
        /// Issued here and still good.
        case valid
        /// Issued here, but expired or revoked.
        case invalid
        /// Not issued here.
        case unknown
    }

    /// The status of `token`.
    public func status(of token: String) -> TokenStatus {
        let now = now()
        return records.withLock { records in
            guard let record = records.accessTokens[token] else { return .unknown }
            return !record.revoked && record.expiresAt > now ? .valid : .invalid
        }
    }

    /// Whether the API accepts `token`: a valid issued one, or (unless issued tokens are
    /// required) any unknown non-empty one.
    public func accepts(_ token: String) -> Bool {
        switch status(of: token) {
        case .valid: return true
        case .invalid: return false
        case .unknown: return !options.requiresIssuedTokens && !token.isEmpty
        }
    }

    /// When `token` expires, if it was issued here.
    func expiry(of token: String) -> Date? {
        records.withLock { $0.accessTokens[token]?.expiresAt }
    }

    /// Applies `change` to the records as the state file holds them right then, holding its
    /// lock, and saves them, so processes sharing the file keep each other's codes and tokens; a
    /// file that cannot be used leaves them in memory for this run.
    @discardableResult
    func update<Result: Sendable>(_ change: (inout AuthorizationRecords) -> Result) -> Result {
        let (now, version) = (now(), AuthorizationRecords.currentVersion)
        return records.withLock { records in
            var result: Result?
            let file = options.stateFile.map { SandboxStateFile($0) }
            _ = try? file?.update(AuthorizationRecords.self, version: version, initial: records) {
                $0.prune(now: now)
                result = change(&$0)
                records = $0
            }
            if let result { return result }
            records.prune(now: now)
            return change(&records)
        }
    }

    /// Whether `secret` is the registered secret of `clientID`: any id passes when no client is
    /// registered, a public client needs none, and an unknown client fails.
    func authenticates(clientID: String, secret: String?) -> Bool {
        guard !options.clients.isEmpty else { return true }
        guard let client = options.clients.first(where: { $0.id == clientID }) else { return false }
        guard let expected = client.secret else { return true }
        guard let secret else { return false }
        return SHA256.hash(data: Data(secret.utf8)) == SHA256.hash(data: Data(expected.utf8))
    }

    /// Whether `clientID` may sign in through `redirectURI`: the one registered with it, if any.
    func knows(_ clientID: String, at redirectURI: String) -> Bool {
        guard let client = options.clients.first(where: { $0.id == clientID }) else {
            return !clientID.isEmpty && options.clients.isEmpty
        }
        return client.redirectURI.map { $0 == redirectURI } ?? true
    }
}
