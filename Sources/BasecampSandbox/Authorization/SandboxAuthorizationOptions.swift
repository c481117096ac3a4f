public import APISandbox
public import Foundation

/// How the sandbox's authorization servers behave: token lifetimes, clients, the device grant,
/// and whether the API accepts only tokens they issued.
///
/// The defaults play Launchpad's lifetimes (two weeks), accept any client id (public on the resource-first server;
/// Launchpad, which has no public clients, wants a secret), approve every sign-in at once (a device code after two
/// polls), and leave the API accepting any non-empty token. ``fromEnvironment(_:)`` reads the same settings from
/// `BASECAMP_SANDBOX_*` variables for `basecamp --sandbox` and `api-sandbox`.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct SandboxAuthorizationOptions: Sendable {
    /// A client the servers know, with its secret when it is confidential.
    public struct Client: Sendable, Hashable {
        /// The client id.
        public var id: String
        /// The secret the token endpoint requires; `nil` for a public client.
        public var secret: String?
        /// The redirect URI registered with it, which sign-ins must name exactly; `nil` takes any loopback one.
        public var redirectURI: String?

        /// Creates a client.
        public init(id: String, secret: String? = nil, redirectURI: String? = nil) {
            self.id = id
            self.secret = secret
            self.redirectURI = redirectURI
        }
    }

    /// Seconds an access token lives (`expires_in`); short values exercise refresh.
    public var accessTokenLifetime: Int
    /// The registered clients; empty accepts any client id (with a secret on Launchpad, which has no public clients).
    public var clients: [Client]
    /// Whether the API answers 401 to tokens the servers did not issue. Off by default: any non-empty token works, and
    /// only tokens the servers issued and then expired or revoked are refused.
    public var requiresIssuedTokens: Bool
    /// Whether the API advertises the resource-first server; off, it advertises only Launchpad
    /// and the resource-first endpoints answer 404, so clients fall back to Launchpad.
    public var offersResourceFirstServer: Bool
    /// Whether the device authorization endpoint works; off, it answers 503, as a server that
    /// has not enabled the grant yet.
    public var offersDeviceGrant: Bool
    /// How many polls of a device code answer `authorization_pending` before it is approved.
    public var devicePollsBeforeApproval: Int
    /// The polling interval the device endpoint asks for, in seconds.
    public var deviceInterval: Int
    /// Whether the user declines (`access_denied`) on the authorize pages and the device grant alike.
    public var declinesAuthorization: Bool
    /// Whether a refresh answers with a new refresh token and spends the old one (the default). Off, it answers
    /// without `refresh_token` and the old one stays good, as Launchpad may: clients must keep the one they have.
    public var rotatesRefreshTokens: Bool
    /// Whether the resource-first issuer's metadata (`/.well-known/oauth-authorization-server`)
    /// is served broken, cut off in the middle of its JSON, as a misconfigured server might: the
    /// resource still advertises the issuer, so discovery picks it and then must fail.
    public var servesBrokenDiscovery: Bool
    /// Where issued codes and tokens are kept between runs, so separate processes (each with
    /// its own sandbox) accept each other's tokens; `nil` keeps them in memory.
    public var stateFile: URL?

    /// Creates options.
    public init(
        accessTokenLifetime: Int = 1_209_600,
        clients: [Client] = [],
        requiresIssuedTokens: Bool = false,
        offersResourceFirstServer: Bool = true,
        offersDeviceGrant: Bool = true,
        devicePollsBeforeApproval: Int = 2,
        deviceInterval: Int = 1,
        declinesAuthorization: Bool = false,
        rotatesRefreshTokens: Bool = true,
        servesBrokenDiscovery: Bool = false,
        stateFile: URL? = nil
    ) {
        self.accessTokenLifetime = max(1, accessTokenLifetime)
        self.clients = clients
        self.requiresIssuedTokens = requiresIssuedTokens
        self.offersResourceFirstServer = offersResourceFirstServer
        self.offersDeviceGrant = offersDeviceGrant
        self.devicePollsBeforeApproval = max(0, devicePollsBeforeApproval)
        self.deviceInterval = max(1, deviceInterval)
        self.declinesAuthorization = declinesAuthorization
        self.rotatesRefreshTokens = rotatesRefreshTokens
        self.servesBrokenDiscovery = servesBrokenDiscovery
        self.stateFile = stateFile
    }

    /// Options from the environment, over the defaults:
    ///
    /// | variable | meaning |
    /// |---|---|
    /// | `BASECAMP_SANDBOX_TOKEN_LIFETIME` | access token lifetime in seconds |
    /// | `BASECAMP_SANDBOX_CLIENT_ID`, `_CLIENT_SECRET`, `_REDIRECT_URI` | register one client |
    /// | `BASECAMP_SANDBOX_STRICT_TOKENS=1` | the API accepts only issued tokens |
    /// | `BASECAMP_SANDBOX_LAUNCHPAD_ONLY=1` | no resource-first server |
    /// | `BASECAMP_SANDBOX_NO_DEVICE=1` | the device endpoint answers 503 |
    /// | `BASECAMP_SANDBOX_BROKEN_DISCOVERY=1` | the issuer's metadata document is broken JSON |
    /// | `BASECAMP_SANDBOX_KEEP_REFRESH_TOKENS=1` | a refresh keeps the refresh token, answering without one |
    /// | `BASECAMP_SANDBOX_AUTH_STATE` | the state file; else `BASECAMP_SANDBOX_STATE` plus `.auth.json` |
    ///
    /// Switches take `1` or `0` (also `true`/`false`, `yes`/`no`); unset or empty is the default.
    ///
    /// - Throws: ``APISandbox/SandboxSettingError`` naming a variable whose value is not understood.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SandboxSettingError) -> SandboxAuthorizationOptions {
        func text(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func flag(_ name: String) throws(SandboxSettingError) -> Bool {
            try SandboxSettings.flag(name, in: environment)
        }
        var options = SandboxAuthorizationOptions()
        options.accessTokenLifetime = try SandboxSettings.integer(
            "BASECAMP_SANDBOX_TOKEN_LIFETIME",
            in: environment,
            default: options.accessTokenLifetime,
            minimum: 1
        )
        if let id = text("BASECAMP_SANDBOX_CLIENT_ID") {
            let (secret, redirect) = (text("BASECAMP_SANDBOX_CLIENT_SECRET"), text("BASECAMP_SANDBOX_REDIRECT_URI"))
            options.clients = [Client(id: id, secret: secret, redirectURI: redirect)]
        }
        options.requiresIssuedTokens = try flag("BASECAMP_SANDBOX_STRICT_TOKENS")
        options.offersResourceFirstServer = try !flag("BASECAMP_SANDBOX_LAUNCHPAD_ONLY")
        options.offersDeviceGrant = try !flag("BASECAMP_SANDBOX_NO_DEVICE")
        options.servesBrokenDiscovery = try flag("BASECAMP_SANDBOX_BROKEN_DISCOVERY")
        options.rotatesRefreshTokens = try !flag("BASECAMP_SANDBOX_KEEP_REFRESH_TOKENS")
        let stateFile = text("BASECAMP_SANDBOX_AUTH_STATE") ?? text("BASECAMP_SANDBOX_STATE").map { $0 + ".auth.json" }
        options.stateFile = stateFile.map { URL(fileURLWithPath: $0) }
        return options
    }
}
