import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreOAuthHummingbird

/// `basecamp auth login`: signs in through the browser (a loopback redirect on 127.0.0.1, or
/// `::1` where there is no IPv4 loopback, with PKCE and `state`), with `--device`, or with a
/// token piped in (`--with-token`), then keeps the tokens for every later command.
struct AuthLoginCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to Basecamp and keep the tokens for every command.",
        discussion: """
            Register an integration at https://launchpad.37signals.com/integrations with the redirect \
            URI http://127.0.0.1:PORT/callback, then run basecamp auth login --port PORT with \
            BASECAMP_CLIENT_ID and BASECAMP_CLIENT_SECRET set. The address to open is printed (and \
            opened in your browser where there is one); on a machine with no display (Linux without \
            DISPLAY or WAYLAND_DISPLAY) the sign-in uses a code you enter on another device instead, \
            where the server offers it. The tokens are saved, readable only by you, in \
            BASECAMP_CONFIG_DIR, $XDG_CONFIG_HOME/basecamp or ~/.config/basecamp (a named --profile \
            in its profiles folder), and are refreshed when they near expiry. Try it offline: \
            basecamp --sandbox auth login.

            Without a person: --with-token reads an access token from stdin, either bare or as the \
            JSON of a token response, {"access_token": "...", "refresh_token": "...", "expires_in": \
            1209600} ("expires_at": an ISO 8601 time instead of "expires_in"); a refresh token needs \
            BASECAMP_CLIENT_ID (and BASECAMP_CLIENT_SECRET) to be renewed with and, for Launchpad, \
            --redirect-uri: the redirect URI the token was issued for. It is checked with the \
            server and stored like any sign-in, never printed. For example:
              printf '%s\\n' "$TOKEN" | basecamp auth login --with-token
              cat token-response.json | basecamp auth login --with-token --redirect-uri http://127.0.0.1:8080/callback
            With BASECAMP_NONINTERACTIVE=1, or with no terminal on stdin and no browser, a sign-in \
            that would wait for a person exits 3 at once and names this command instead.
            """
    )

    @ParentCommand var root: BasecampCommand

    @Option(
        name: .customLong("client-id"),
        help: ArgumentHelp("Your integration's client id (or set BASECAMP_CLIENT_ID).", valueName: "id")
    )
    var clientID: String?

    @Option(
        name: .customLong("client-secret"),
        help: ArgumentHelp("Its client secret (prefer BASECAMP_CLIENT_SECRET).", valueName: "secret")
    )
    var clientSecret: String?

    @Flag(help: "Sign in from another device: show a code to enter there, where the server offers it.")
    var device = false

    @Option(
        help: ArgumentHelp(
            "The loopback port the browser returns to, as in your integration's redirect URI (any free port by default).",
            valueName: "port"
        )
    )
    var port: Int?

    @Flag(name: .customLong("no-browser"), help: "Only print the address to open; do not start a browser.")
    var noBrowser = false

    @Option(help: ArgumentHelp("Seconds to wait for you to finish signing in.", valueName: "seconds"))
    var wait: Double = 300

    @Flag(
        name: .customLong("with-token"),
        help: "Read an access token (bare, or a token response's JSON) from stdin instead of signing in."
    )
    var withToken = false

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp(
            "With --with-token: your integration's redirect URI, which Launchpad wants on every refresh.",
            valueName: "uri"
        )
    )
    var redirectURI: String?

    func validate() throws {
        guard wait.isFinite, wait > 0, wait <= 3600 else {
            throw ValidationError("--wait must be more than 0 and at most 3600 seconds.")
        }
        if let port, !(1...65535).contains(port) {
            throw ValidationError("--port must be between 1 and 65535.")
        }
        if device, port != nil {
            throw ValidationError("--port is for the browser sign-in; --device needs none.")
        }
        if withToken, device || port != nil {
            throw ValidationError("--with-token reads the token from stdin; it takes neither --device nor --port.")
        }
        if redirectURI != nil, !withToken {
            throw ValidationError("--redirect-uri goes with --with-token; a browser sign-in uses its --port.")
        }
        if let redirectURI, Self.redirect(redirectURI) == nil {
            throw ValidationError("--redirect-uri must be an absolute http(s) URL, as your integration registered it.")
        }
    }

    func run(in context: CommandContext) async throws {
        let files = try signInFiles(context)
        // Everything that can refuse the command line is checked before any request is sent.
        let pasted = withToken ? try await readToken(context) : nil
        // Nobody to sign in is the answer that holds whatever else is missing, so it comes first.
        let attendance = SignInAttendance(context, noBrowser: noBrowser)
        if pasted == nil, let reason = attendance.unattendedReason {
            throw SignInAttendance.refusal(reason: reason, context: context, profile: files.profile)
        }
        let registration = try pasted.map { try tokenRegistration(context, for: $0) } ?? clientRegistration(context)
        // Before the sandbox issues anything: under --sandbox it keeps its records in this folder.
        try files.createDirectory()
        let connection = try await context.connection(defaultBaseURL: BasecampConfig.defaultBaseURL)
        let agent = try BasecampSession.signInAgent(context: context, connection: connection, files: files)
        let network = BasecampSession.network(connection: connection, userAgent: agent)
        let apiBaseURL = connection.configuration.baseURL
        let launchpad = Self.launchpadURL(context, apiBaseURL: apiBaseURL)
        let discovered = try await BasecampOAuth.discoverAuthorizationServer(
            apiBaseURL: apiBaseURL,
            launchpad: launchpad,
            network: network,
            allowsLoopback: context.usesSandbox || URLPolicy.isLoopback(host: apiBaseURL.host ?? "")
        )
        var oauth = OAuthClient(registration: registration, server: discovered.server, network: network)

        let credentials: TokenCredentials
        let offersDevice = !noBrowser && port == nil && !attendance.hasDisplay && oauth.server.supportsDeviceGrant
        if let pasted {
            oauth.registration.redirectURI = redirectURI.flatMap(Self.redirect)
            if pasted.refreshToken != nil, oauth.registration.redirectURI == nil,
                oauth.server.tokenRequestStyle.refreshSendsRedirectURI
            {
                throw ValidationError(
                    "Launchpad wants your integration's redirect URI with every refresh: pass it with --redirect-uri "
                        + "(as registered, e.g. http://127.0.0.1:PORT/callback), or pipe in the access token alone."
                )
            }
            credentials = pasted
        } else if device || offersDevice {
            if !device {
                context.note(
                    "No display here: sign in with a code on another device (--no-browser prints an address instead)."
                )
            }
            let codeIssued = Locked(false)
            do {
                credentials = try await deviceSignIn(
                    oauth,
                    foundBy: discovered.source,
                    codeIssued: codeIssued,
                    context: context
                )
            } catch let error as APIError where !device && error.httpStatus == 503 && !codeIssued.withLock({ $0 }) {
                // The resource-first server answers 503 at its device endpoint until it is enabled.
                context.note("Device sign-in is not available on this server yet: printing an address to open instead.")
                credentials = try await browserFlow(&oauth, discovered: discovered, context: context)
            }
        } else {
            credentials = try await browserFlow(&oauth, discovered: discovered, context: context)
        }
        for secret in [credentials.accessToken, credentials.refreshToken].compactMap({ $0 }) {
            context.registerSecret(secret)
        }

        let authorization = try await self.authorization(
            token: credentials.accessToken,
            launchpad: launchpad,
            agent: agent,
            connection: connection
        )
        let login = StoredLogin(
            clientID: registration.clientID,
            clientSecret: registration.clientSecret,
            redirectURI: oauth.registration.redirectURI,
            tokenEndpoint: oauth.server.tokenEndpoint,
            tokenRequestStyle: oauth.server.tokenRequestStyle == .legacyType ? "legacy" : "standard",
            issuer: oauth.server.issuer,
            launchpadURL: launchpad,
            apiBaseURL: apiBaseURL,
            name: authorization.identity.displayName,
            email: authorization.identity.emailAddress,
            accounts: StoredLogin.accounts(
                authorization.basecampAccounts.map { StoredLogin.Account(id: $0.id, name: $0.name) },
                boundTo: credentials.resource
            ),
            signedInAt: context.now
        )
        let store = files.credentialStore(timeSource: connection.configuration.timeSource)
        try await files.save(credentials, login, in: store)
        try AuthStatus.print(login, credentials, files: files, in: context)
    }

    /// Who the new token belongs to, from `authorization.json`, asked with the sign-in's
    /// `User-Agent`: the email that names the contact of every later request comes from here.
    private func authorization(
        token: String,
        launchpad: URL,
        agent: String,
        connection: APIConnection
    ) async throws -> BasecampAuthorization {
        let client = try Client(
            configuration: ClientConfiguration(
                baseURL: launchpad,
                timeout: connection.configuration.timeout,
                userAgent: agent,
                json: JSONCoding(keys: .useDefaultKeys),
                hooks: connection.configuration.hooks,
                timeSource: connection.configuration.timeSource,
                retry: global.noRetry ? .none : .default,
                auth: BearerTokenAuth(token: token)
            ),
            transport: connection.transport
        )
        return try await client.send(
            Endpoint<BasecampAuthorization>(
                .get,
                "authorization.json",
                operation: OperationMetadata(name: "GetAuthorization", service: "authorization")
            )
        )
    }

    /// The client id and secret from the flags or the environment; the sandbox accepts any id,
    /// and under `--sandbox` one is made up, with a secret for its Launchpad, which has no public
    /// clients.
    func clientRegistration(_ context: CommandContext) throws -> OAuthClientRegistration {
        let id = clientID.flatMap { $0.isEmpty ? nil : $0 } ?? context.toolVariable("CLIENT_ID")
        guard let id = id ?? (context.usesSandbox ? "basecamp-cli-sandbox" : nil) else {
            throw ValidationError(
                "No client id: pass --client-id or set BASECAMP_CLIENT_ID (register an integration at https://launchpad.37signals.com/integrations)."
            )
        }
        let given = clientSecret.flatMap { $0.isEmpty ? nil : $0 } ?? context.toolVariable("CLIENT_SECRET")
        let secret = given ?? (context.usesSandbox ? "basecamp-cli-sandbox-secret" : nil)
        if let secret { context.registerSecret(secret) }
        return OAuthClientRegistration(clientID: id, clientSecret: secret)
    }

    /// `text` as a redirect URI: an absolute http or https URL with a host; otherwise `nil`.
    static func redirect(_ text: String) -> URL? {
        guard let url = URL(string: text), (try? URLPolicy.checkedTarget(url, allowingInsecureHTTP: true)) != nil
        else { return nil }
        return url
    }

    /// Launchpad: the sandbox's under `--sandbox`, else `BASECAMP_LAUNCHPAD_URL`, else the one
    /// beside an API on this machine (an `api-sandbox`), else the real one.
    static func launchpadURL(_ context: CommandContext, apiBaseURL: URL) -> URL {
        let sandbox = BasecampSession.origin(of: apiBaseURL).appending(path: "launchpad")
        if context.usesSandbox { return sandbox }
        if let given = context.toolVariable("LAUNCHPAD_URL").flatMap(URL.init(string:)) { return given }
        return URLPolicy.isLoopback(host: apiBaseURL.host ?? "") ? sandbox : BasecampOAuth.launchpadURL
    }

    private func browserSignIn(
        _ oauth: OAuthClient,
        listener: some AuthorizationRedirectReceiver,
        context: CommandContext
    ) async throws -> TokenCredentials {
        let request = try oauth.authorizationRequest(redirectURI: listener.redirectURI)
        context.note("Open this address in your browser to sign in to Basecamp:")
        context.note("  \(request.url.absoluteString)")
        if !noBrowser, BrowserLauncher.open(request.url, variables: context.environment.variables) {
            context.note("Your browser should have opened it. Waiting for you to finish there…")
        } else {
            context.note("Waiting for you to finish there…")
        }
        let callback = try await listener.waitForCallback(
            timeout: .milliseconds(Int64((wait * 1000).rounded())),
            timeSource: context.environment.clock,
            accept: request.isCallback
        )
        return try await oauth.exchange(callback: callback, for: request)
    }

    /// The browser sign-in through a loopback listener, which becomes `oauth`'s redirect URI.
    private func browserFlow(
        _ oauth: inout OAuthClient,
        discovered: DiscoveredAuthorizationServer,
        context: CommandContext
    ) async throws -> TokenCredentials {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            throw ValidationError("The browser sign-in needs macOS 14 or later; use --device.")
        }
        let listener = try await LoopbackRedirectListener.start(port: port ?? 0)
        oauth.registration.redirectURI = listener.redirectURI
        if port == nil, !context.usesSandbox, case .fallback = discovered.source {
            context.note(
                "Launchpad sends the browser back only to your integration's registered redirect URI; this "
                    + "sign-in waits at \(listener.redirectURI). If Launchpad refuses it, run again with --port "
                    + "and the port you registered."
            )
        }
        do {
            let credentials = try await browserSignIn(oauth, listener: listener, context: context)
            await listener.close()
            return credentials
        } catch {
            await listener.close()
            throw error
        }
    }

    private func deviceSignIn(
        _ oauth: OAuthClient,
        foundBy source: DiscoveredAuthorizationServer.Source,
        codeIssued: Locked<Bool>,
        context: CommandContext
    ) async throws -> TokenCredentials {
        guard oauth.server.supportsDeviceGrant else {
            // At Launchpad only because the API's document could not be had this time (no answer, a
            // 429 or a 5xx): report that failure (exit 6 or 7), which trying again may cure, not a
            // usage error.
            if case .fallback(.resourceDiscoveryFailed(let failure)) = source,
                case .fetchFailed(let status) = failure.reason, status.map({ $0 == 429 || $0 >= 500 }) ?? true
            {
                throw APIError(
                    failure.code,
                    APIError.Details(
                        message: "Device sign-in needs the sign-in server the API names. \(failure.message)",
                        hint: "Try again; or run 'basecamp auth login' without --device to sign in in a browser.",
                        httpStatus: status,
                        cause: failure
                    )
                )
            }
            throw APIError.usage(
                "This Basecamp sign-in server does not offer device sign-in.",
                hint: "Run 'basecamp auth login' without --device, and open the address it prints on any machine."
            )
        }
        return try await oauth.deviceSignIn { update in
            if case .codeIssued(let codes) = update {
                codeIssued.withLock { $0 = true }
                context.note(
                    "To sign in, open \(codes.verificationURI.absoluteString) and enter the code \(codes.userCode)"
                )
                if let complete = codes.verificationURIComplete {
                    context.note("(or open \(complete.absoluteString))")
                }
                context.note("Waiting for you to approve it there…")
            }
        }
    }
}

extension BasecampAuthorization.Identity {
    /// "First Last", or the email address when there is no name.
    var displayName: String {
        let name = [firstName, lastName].compactMap { $0 }.joined(separator: " ")
        return name.isEmpty ? emailAddress ?? "identity \(id)" : name
    }
}
