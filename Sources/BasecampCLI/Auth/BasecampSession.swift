import ArgumentParser
import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreOAuth

/// How a `basecamp` command reaches the API: the connection, the credentials (a token from
/// `--token`/`BASECAMP_TOKEN`, else the stored sign-in, refreshed as needed, else the
/// sandbox's stand-in) and the `User-Agent`.
struct BasecampSession {
    /// Where the credentials came from.
    enum Source {
        /// A token from `--token` (`fromOption`) or from `BASECAMP_TOKEN`.
        case token(fromOption: Bool)
        /// A sign-in on this machine, with the `resource` its token is bound to, if any.
        case storedSignIn(StoredLogin, resource: String?)
        case sandboxStandIn
    }

    let context: CommandContext
    let connection: APIConnection
    let auth: any AuthStrategy
    let source: Source
    let userAgent: BasecampUserAgent
    /// The profile whose sign-in is used (or would be, with no token given).
    let profile: SignInProfile

    /// The token from `--token`, else `BASECAMP_TOKEN`; `nil` when neither gives one.
    static func givenToken(context: CommandContext, root: BasecampCommand) -> String? {
        root.token.flatMap { $0.isEmpty ? nil : $0 } ?? context.toolVariable("TOKEN")
    }

    /// Resolves the credentials of `root`'s token or profile and opens the connection.
    ///
    /// - Throws: `auth_required` (exit 3) when there is no token and no stored sign-in;
    ///   `ValidationError` (exit 64) for a profile name that cannot be one.
    static func open(context: CommandContext, root: BasecampCommand) async throws -> BasecampSession {
        let profile = try SignInProfile.selected(option: root.profile, context: context)
        let option = root.token.flatMap { $0.isEmpty ? nil : $0 }
        let given = givenToken(context: context, root: root)
        let files = SignInFiles(
            variables: context.environment.variables,
            sandbox: context.usesSandbox,
            profile: profile
        )
        let login = try given == nil ? files?.loadLogin() : nil
        let connection = try await context.connection(
            defaultBaseURL: login?.apiBaseURL ?? BasecampConfig.defaultBaseURL
        )
        // The contact Basecamp asks for is the person signed in on this machine, even when a
        // token overrides the credentials; the login is read again only for its email.
        let email = login?.email ?? (given == nil ? nil : (try? files?.loadLogin())?.email)
        // Asked for only once the credentials are known, so no sign-in at all is still exit 3.
        let makeAgent = { try agent(context: context, connection: connection, email: email) }

        if let given {
            context.registerSecret(given)
            let userAgent = try makeAgent()
            return BasecampSession(
                context: context,
                connection: connection,
                auth: BearerTokenAuth(token: given),
                source: .token(fromOption: option != nil),
                userAgent: userAgent,
                profile: profile
            )
        }
        let store = files.map {
            SignInCredentialStore(files: $0, base: $0.credentialStore(timeSource: connection.configuration.timeSource))
        }
        // A login without its tokens (left by an older version, or a logout in progress) is no
        // sign-in at all, so `--sandbox` falls back to its stand-in as if there were none.
        if let login, let store, let stored = try await SharedCredentials.load(store.base) {
            let userAgent = try makeAgent()
            for secret in [stored.accessToken, stored.refreshToken, login.clientSecret].compactMap({ $0 }) {
                context.registerSecret(secret)
            }
            let oauth = login.oauthClient(
                network: network(connection: connection, userAgent: userAgent.value),
                origin: context.usesSandbox ? origin(of: connection.configuration.baseURL) : nil
            )
            return BasecampSession(
                context: context,
                connection: connection,
                auth: oauth.refreshingAuth(credentials: stored, store: store),
                source: .storedSignIn(login, resource: stored.resource),
                userAgent: userAgent,
                profile: profile
            )
        }
        // A token file that is there but cannot be read is a broken sign-in to mend, not none.
        if login != nil, let files, files.sharedCredentials == nil,
            FileManager.default.fileExists(atPath: files.credentialsURL.path)
        {
            throw ConfigurationError(
                "The credential file \(files.credentialsURL.path) cannot be read.",
                hint: "Run '\(loginCommand(context))' again (or 'basecamp auth logout' to remove the sign-in)."
            )
        }
        guard context.usesSandbox else { throw notSignedIn(context, profile: profile) }
        let userAgent = try makeAgent()
        return BasecampSession(
            context: context,
            connection: connection,
            auth: BearerTokenAuth(token: "sandbox-token"),
            source: .sandboxStandIn,
            userAgent: userAgent,
            profile: profile
        )
    }

    /// The `User-Agent`: `BASECAMP_USER_AGENT` when set, else the tool's name and version with
    /// the signed-in user's `email` as the contact Basecamp asks every request to name. A sandbox
    /// on this machine (`--sandbox`, or a loopback `--base-url` such as `api-sandbox`) is not
    /// Basecamp, so with no sign-in its owner's email stands in.
    ///
    /// - Throws: `usage` (exit 64) when no contact is known: a token and no sign-in on this
    ///   machine, no `BASECAMP_USER_AGENT`, and a real API.
    static func agent(context: CommandContext, connection: APIConnection, email: String?) throws -> BasecampUserAgent {
        let override = context.toolVariable("USER_AGENT")
        let local = context.usesSandbox || URLPolicy.isLoopback(host: connection.configuration.baseURL.host ?? "")
        let contact = email ?? (local ? BasecampSandboxSeed.ownerEmail : nil)
        guard override != nil || contact != nil else {
            throw APIError.usage(
                APIError.Details(
                    message: "Basecamp asks every request to name its app and a contact, and no contact is known.",
                    hint:
                        "Set BASECAMP_USER_AGENT, e.g. \"my-scripts (you@example.com)\", or run '\(loginCommand(context))' so your email is used."
                )
            )
        }
        return try BasecampUserAgent.forTool(
            connection.configuration.userAgent ?? "basecamp",
            contact: contact,
            override: override
        )
    }

    /// The `User-Agent` of a sign-in: as ``agent(context:connection:email:)`` with the email of
    /// an earlier sign-in. Basecamp asks sign-in requests to name a contact too, and the email is
    /// learnt only from the sign-in itself, so a first sign-in to a real server needs
    /// `BASECAMP_USER_AGENT`.
    ///
    /// - Throws: `usage` (exit 64), before any request, when no contact is known.
    static func signInAgent(context: CommandContext, connection: APIConnection, files: SignInFiles) throws -> String {
        let email = (try? files.loadLogin())?.email
        do {
            return try agent(context: context, connection: connection, email: email).value
        } catch var error as APIError {
            error.details.message =
                "Basecamp asks every request, sign-in included, to name its app and a contact, and no contact is known "
                + "before your first sign-in."
            error.details.hint =
                "Set BASECAMP_USER_AGENT for this sign-in, e.g. \"my-scripts (you@example.com)\"; afterwards your "
                + "email is used."
            throw error
        }
    }

    /// Transport, clock, agent and hooks for the sign-in requests, as for the API's.
    static func network(connection: APIConnection, userAgent: String) -> OAuthNetwork {
        OAuthNetwork(
            transport: connection.transport,
            timeSource: connection.configuration.timeSource,
            userAgent: userAgent,
            hooks: connection.configuration.hooks,
            timeout: connection.configuration.timeout
        )
    }

    /// `scheme://host:port` of `url`.
    static func origin(of url: URL) -> URL {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        return components.url ?? url
    }

    /// `basecamp auth login`, with `--sandbox` when the command ran under it and the profile's
    /// `--profile`, then `extra` (such as ` --with-token`).
    static func loginCommand(_ context: CommandContext, profile: SignInProfile = .default, extra: String = "") -> String
    {
        let sandbox = context.usesSandbox ? " --sandbox" : ""
        return "basecamp\(sandbox)\(profile.commandOption) auth login\(extra)"
    }

    /// `auth_required` for a command that found no sign-in.
    static func notSignedIn(_ context: CommandContext, profile: SignInProfile = .default) -> APIError {
        let token = context.usesSandbox ? "" : " (or set BASECAMP_TOKEN)"
        return APIError.authRequired(
            APIError.Details(
                message: profile.isDefault
                    ? "Not signed in to Basecamp." : "Not signed in to Basecamp in the profile \(profile.name).",
                hint: "Run '\(loginCommand(context, profile: profile))' to sign in\(token)."
            )
        )
    }

    /// The SDK's client on this session's credentials and settings. With
    /// `BASECAMP_CREDENTIALS_URL` set, each account's rate budget is shared through that
    /// database by every process using it; without, requests go as fast as asked and 429s are
    /// retried as before.
    ///
    /// - Throws: `usage` (exit 64) when `BASECAMP_CREDENTIALS_URL` is not usable.
    func client(global: GlobalOptions) throws -> BasecampClient {
        var config = BasecampConfig(
            baseURL: connection.configuration.baseURL,
            enableRetry: !global.noRetry,
            timeoutInterval: global.timeout
        )
        let shared = SharedCredentials(
            variables: context.environment.variables,
            sandbox: context.usesSandbox,
            profile: profile.name
        )
        config.rateLimiter = try shared?.rateLimiter()
        return try BasecampClient(
            auth: auth,
            userAgent: userAgent.value,
            config: config,
            hooks: connection.configuration.hooks,
            transport: connection.transport,
            timeSource: connection.configuration.timeSource
        )
    }

    /// The account a command works in: `--account`, `BASECAMP_ACCOUNT_ID`, the stored
    /// sign-in's only account, or the sandbox's.
    ///
    /// - Throws: `ValidationError` (exit 64) when none can be chosen, naming the candidates.
    func accountID(option: String?) throws -> String {
        let sandboxAccount = context.usesSandbox ? BasecampSandboxModule.defaultAccountID : nil
        var stored: StoredLogin?
        if case .storedSignIn(let login, _) = source { stored = login }
        let chosen =
            option ?? context.toolVariable("ACCOUNT_ID") ?? stored?.defaultAccount.map { String($0.id) }
            ?? (stored == nil || stored?.accounts.isEmpty == true ? sandboxAccount : nil)
        guard let accountID = chosen else {
            if let stored, !stored.accounts.isEmpty {
                let names = stored.accounts.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
                throw ValidationError(
                    "You can reach several Basecamp accounts: \(names). Pass --account ID or set BASECAMP_ACCOUNT_ID."
                )
            }
            throw ValidationError(
                "No account: pass --account ID or set BASECAMP_ACCOUNT_ID (the digits after the host in your Basecamp URL)."
            )
        }
        let trimmed = accountID.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 20, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError("The account id must be digits, e.g. 999999999, not \"\(accountID.prefix(40))\".")
        }
        return trimmed
    }

    /// Runs `body`, adding how to sign in again to an `auth_required` failure.
    func withSignInHint<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch var error as APIError where error.code == .authRequired {
            let login = Self.loginCommand(context, profile: profile)
            switch source {
            case .storedSignIn:
                // A refused refresh removes the whole sign-in (SignInCredentialStore.remove()).
                let removed =
                    SignInFiles(
                        variables: context.environment.variables,
                        sandbox: context.usesSandbox,
                        profile: profile
                    )
                    .map { !FileManager.default.fileExists(atPath: $0.loginURL.path) } ?? false
                error.details.hint =
                    removed
                    ? "The server refused the stored sign-in, so it was removed. Run '\(login)' to sign in again."
                    : "The stored sign-in (from '\(login)') was refused. Run '\(login)' to sign in again."
            case .token(let fromOption):
                error.details.hint =
                    fromOption
                    ? "The token given with --token was refused; check it, or leave --token out and run '\(login)'."
                    : "The token in BASECAMP_TOKEN was refused; check it, or unset BASECAMP_TOKEN and run '\(login)'."
            case .sandboxStandIn:
                error.details.hint = "Run '\(login)' to sign in to the sandbox."
            }
            throw error
        }
    }
}
