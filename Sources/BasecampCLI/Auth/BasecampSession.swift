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
        case token
        case storedSignIn(StoredLogin)
        case sandboxStandIn
    }

    let context: CommandContext
    let connection: APIConnection
    let auth: any AuthStrategy
    let source: Source
    let userAgent: BasecampUserAgent

    /// Resolves the credentials and opens the connection.
    ///
    /// - Throws: `auth_required` (exit 3) when there is no token and no stored sign-in.
    static func open(context: CommandContext, token: String?) async throws -> BasecampSession {
        let given = token.flatMap { $0.isEmpty ? nil : $0 } ?? context.toolVariable("TOKEN")
        let files = SignInFiles(variables: context.environment.variables, sandbox: context.usesSandbox)
        let login = try given == nil ? files?.loadLogin() : nil
        let connection = try await context.connection(
            defaultBaseURL: login?.apiBaseURL ?? BasecampConfig.defaultBaseURL
        )
        let userAgent = try agent(context: context, connection: connection)

        if let given {
            context.registerSecret(given)
            return BasecampSession(
                context: context,
                connection: connection,
                auth: BearerTokenAuth(token: given),
                source: .token,
                userAgent: userAgent
            )
        }
        let store = files.map {
            SignInCredentialStore(files: $0, base: $0.credentialStore(timeSource: connection.configuration.timeSource))
        }
        // A login without its tokens (left by an older version, or a logout in progress) is no
        // sign-in at all, so `--sandbox` falls back to its stand-in as if there were none.
        if let login, let store, let stored = await store.load() {
            for secret in [stored.accessToken, stored.refreshToken, login.clientSecret].compactMap({ $0 }) {
                context.registerSecret(secret)
            }
            let oauth = login.oauthClient(
                network: network(connection: connection, userAgent: userAgent),
                origin: context.usesSandbox ? origin(of: connection.configuration.baseURL) : nil
            )
            return BasecampSession(
                context: context,
                connection: connection,
                auth: oauth.refreshingAuth(credentials: stored, store: store),
                source: .storedSignIn(login),
                userAgent: userAgent
            )
        }
        guard context.usesSandbox else { throw notSignedIn(context) }
        return BasecampSession(
            context: context,
            connection: connection,
            auth: BearerTokenAuth(token: "sandbox-token"),
            source: .sandboxStandIn,
            userAgent: userAgent
        )
    }

    /// The `User-Agent`: `BASECAMP_USER_AGENT` when set, else the tool's own with a contact.
    static func agent(context: CommandContext, connection: APIConnection) throws -> BasecampUserAgent {
        try BasecampUserAgent.forTool(
            connection.configuration.userAgent ?? "basecamp",
            override: context.toolVariable("USER_AGENT")
        )
    }

    /// Transport, clock, agent and hooks for the sign-in requests, as for the API's.
    static func network(connection: APIConnection, userAgent: BasecampUserAgent) -> OAuthNetwork {
        OAuthNetwork(
            transport: connection.transport,
            timeSource: connection.configuration.timeSource,
            userAgent: userAgent.value,
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

    /// `basecamp auth login`, with `--sandbox` when the command ran under it.
    static func loginCommand(_ context: CommandContext) -> String {
        context.usesSandbox ? "basecamp --sandbox auth login" : "basecamp auth login"
    }

    /// `auth_required` for a command that found no sign-in.
    static func notSignedIn(_ context: CommandContext) -> APIError {
        let token = context.usesSandbox ? "" : " (or set BASECAMP_TOKEN)"
        return APIError.authRequired(
            APIError.Details(
                message: "Not signed in to Basecamp.",
                hint: "Run '\(loginCommand(context))' to sign in\(token)."
            )
        )
    }

    /// The SDK's client on this session's credentials and settings.
    func client(global: GlobalOptions) throws -> BasecampClient {
        let config = BasecampConfig(
            baseURL: connection.configuration.baseURL,
            enableRetry: !global.noRetry,
            timeoutInterval: global.timeout
        )
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
        if case .storedSignIn(let login) = source { stored = login }
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
            let login = Self.loginCommand(context)
            switch source {
            case .storedSignIn:
                // A refused refresh removes the whole sign-in (SignInCredentialStore.remove()).
                let removed =
                    SignInFiles(variables: context.environment.variables, sandbox: context.usesSandbox)
                    .map { !FileManager.default.fileExists(atPath: $0.loginURL.path) } ?? false
                error.details.hint =
                    removed
                    ? "The server refused the stored sign-in, so it was removed. Run '\(login)' to sign in again."
                    : "Run '\(login)' to sign in again."
            case .token:
                error.details.hint = "Check BASECAMP_TOKEN, or unset it and run '\(login)'."
            case .sandboxStandIn:
                error.details.hint = "Run '\(login)' to sign in to the sandbox."
            }
            throw error
        }
    }
}
