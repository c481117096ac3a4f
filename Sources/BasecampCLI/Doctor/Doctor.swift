import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// What `basecamp doctor` looks at, gathered once without sending anything: the profile's
/// files, the stored sign-in or the token given instead, and the connection; each check is a
/// method that turns part of it into one ``DoctorCheck``.
struct Doctor {
    /// A token from `--token` or `BASECAMP_TOKEN`, which wins over the stored sign-in.
    struct GivenToken {
        var value: String
        /// `--token` or `BASECAMP_TOKEN`.
        var source: String
    }

    let context: CommandContext
    let profile: SignInProfile
    let files: SignInFiles?
    let given: GivenToken?
    /// The stored sign-in, or the error reading it.
    let login: Result<StoredLogin?, any Error>
    let credentials: TokenCredentials?
    let connection: APIConnection
    /// `--account`, when given.
    let accountOption: String?

    /// The stored sign-in, when it could be read.
    var storedLogin: StoredLogin? { try? login.get() }

    /// Gathers what the checks need, registering every secret it read so nothing printed shows it.
    ///
    /// - Throws: `ValidationError` (exit 64) for a bad `--profile` or base URL.
    static func start(context: CommandContext, root: BasecampCommand) async throws -> Doctor {
        let profile = try SignInProfile.selected(option: root.profile, context: context)
        let files = SignInFiles(
            variables: context.environment.variables,
            sandbox: context.usesSandbox,
            profile: profile
        )
        let option = root.token.flatMap { $0.isEmpty ? nil : $0 }
        let given =
            option.map { GivenToken(value: $0, source: "--token") }
            ?? context.toolVariable("TOKEN").map { GivenToken(value: $0, source: "BASECAMP_TOKEN") }
        let login = Result { try files?.loadLogin() }
        let credentials = await files?.credentialStore(timeSource: context.environment.clock).load()
        let secrets = [
            given?.value, credentials?.accessToken, credentials?.refreshToken, try? login.get()?.clientSecret,
        ]
        for secret in secrets.compactMap({ $0 }) { context.registerSecret(secret) }
        let connection = try await context.connection(
            defaultBaseURL: (try? login.get())?.apiBaseURL ?? BasecampConfig.defaultBaseURL
        )
        return Doctor(
            context: context,
            profile: profile,
            files: files,
            given: given,
            login: login,
            credentials: credentials,
            connection: connection,
            accountOption: root.account
        )
    }

    /// Runs every check, in the order a person fixes things.
    func checks() async -> [DoctorCheck] {
        var checks = [folderCheck(), filesCheck(), signInCheck(), expiryCheck()]
        let agent = agentCheck()
        guard agent.value != nil else {
            // Basecamp asks every request to name a contact, so without one nothing is sent.
            let notSent = "Not checked: no request is sent without a contact in the User-Agent (see above)."
            let unsent = ["api", "clock", "authorization_server"].map { DoctorCheck.skip($0, notSent) }
            return checks + [.skip("token_refresh", notSent), agent.check] + unsent
        }
        let refresh = await refreshCheck(agent: agent.value)
        checks += [refresh.check, agent.check]
        let api = await apiCheck(
            token: given?.value ?? refresh.renewed?.accessToken ?? credentials?.accessToken,
            agent: agent.value
        )
        checks += [api.check, clockCheck(api.timing)]
        checks.append(await authorizationServerCheck(agent: agent.value))
        return checks
    }

    /// `basecamp auth login`, as this run would need it.
    var loginCommand: String { BasecampSession.loginCommand(context, profile: profile) }

    /// " in the profile NAME", or nothing for the default one.
    var inProfile: String { profile.isDefault ? "" : " in the profile \(profile.name)" }
}
