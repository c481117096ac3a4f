public import Foundation

/// How the sandbox's authorization servers behave: token lifetimes, clients, the device grant,
/// and whether the API accepts only tokens they issued.
///
/// The defaults play Launchpad's lifetimes (two weeks), accept any client id as a public
/// client, approve every sign-in at once (a device code after two polls), and leave the API
/// accepting any non-empty token, as the sandbox always has. ``fromEnvironment(_:)`` reads the
/// same settings from `BASECAMP_SANDBOX_*` variables for `basecamp --sandbox` and `api-sandbox`.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct SandboxAuthorizationOptions: Sendable {
    /// A client the servers know, with its secret when it is confidential.
    public struct Client: Sendable, Hashable {
        /// The client id.
        public var id: String
        /// The secret the token endpoint requires; `nil` for a public client.
        public var secret: String?

        /// Creates a client.
        public init(id: String, secret: String? = nil) {
            self.id = id
            self.secret = secret
        }
    }

    /// Seconds an access token lives (`expires_in`); short values exercise refresh.
    public var accessTokenLifetime: Int
    /// The registered clients; empty accepts any client id as a public client.
    public var clients: [Client]
    /// Whether the API answers 401 to tokens the servers did not issue. Off by default: any
    /// non-empty token works, and only tokens the servers issued and then expired or revoked
    /// are refused.
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
    /// Whether the authorize pages decline (`error=access_denied`) instead of approving.
    public var declinesAuthorization: Bool
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
        self.servesBrokenDiscovery = servesBrokenDiscovery
        self.stateFile = stateFile
    }

    /// Options from the environment, over the defaults:
    ///
    /// | variable | meaning |
    /// |---|---|
    /// | `BASECAMP_SANDBOX_TOKEN_LIFETIME` | access token lifetime in seconds |
    /// | `BASECAMP_SANDBOX_CLIENT_ID`, `BASECAMP_SANDBOX_CLIENT_SECRET` | register one client |
    /// | `BASECAMP_SANDBOX_STRICT_TOKENS=1` | the API accepts only issued tokens |
    /// | `BASECAMP_SANDBOX_LAUNCHPAD_ONLY=1` | no resource-first server |
    /// | `BASECAMP_SANDBOX_NO_DEVICE=1` | the device endpoint answers 503 |
    /// | `BASECAMP_SANDBOX_BROKEN_DISCOVERY=1` | the issuer's metadata document is broken JSON |
    /// | `BASECAMP_SANDBOX_AUTH_STATE` | the state file; else `BASECAMP_SANDBOX_STATE` plus `.auth.json` |
    ///
    /// Values that are not numbers or flags are ignored.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> SandboxAuthorizationOptions {
        var options = SandboxAuthorizationOptions()
        func flag(_ name: String) -> Bool { ["1", "true", "yes"].contains(environment[name]?.lowercased() ?? "") }
        if let lifetime = environment["BASECAMP_SANDBOX_TOKEN_LIFETIME"].flatMap(Int.init), lifetime > 0 {
            options.accessTokenLifetime = lifetime
        }
        if let id = environment["BASECAMP_SANDBOX_CLIENT_ID"], !id.isEmpty {
            let secret = environment["BASECAMP_SANDBOX_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
            options.clients = [Client(id: id, secret: secret)]
        }
        options.requiresIssuedTokens = flag("BASECAMP_SANDBOX_STRICT_TOKENS")
        options.offersResourceFirstServer = !flag("BASECAMP_SANDBOX_LAUNCHPAD_ONLY")
        options.offersDeviceGrant = !flag("BASECAMP_SANDBOX_NO_DEVICE")
        options.servesBrokenDiscovery = flag("BASECAMP_SANDBOX_BROKEN_DISCOVERY")
        if let path = environment["BASECAMP_SANDBOX_AUTH_STATE"], !path.isEmpty {
            options.stateFile = URL(fileURLWithPath: path)
        } else if let path = environment["BASECAMP_SANDBOX_STATE"], !path.isEmpty {
            options.stateFile = URL(fileURLWithPath: path + ".auth.json")
        }
        return options
    }
}
