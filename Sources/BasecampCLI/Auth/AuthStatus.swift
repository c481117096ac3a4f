import CLISupport
import Foundation
import HTTPCore

/// What `auth login` and `auth status` print: who is signed in, which accounts, when the token
/// expires and where it is kept. Never a token or a secret.
struct AuthStatus: Encodable {
    struct Account: Encodable {
        var id: Int
        var name: String
        var isDefault: Bool

        /// `default`, as `basecamp accounts --json` names it.
        enum CodingKeys: String, CodingKey {
            case id, name
            case isDefault = "default"
        }
    }

    var profile: String
    var name: String
    var email: Nullable<String>
    var accounts: [Account]
    var server: String
    var expiresAt: Nullable<String>
    var expired: Bool
    var refreshable: Bool
    var credentialsFile: String

    private var expiry: Date?
    private var relativeExpiry: String?

    enum CodingKeys: String, CodingKey {
        case profile, name, email, accounts, server, expiresAt, expired, refreshable, credentialsFile
    }

    init(login: StoredLogin, credentials: TokenCredentials?, files: SignInFiles, sandbox: Bool, now: Date) {
        profile = files.profile.name
        name = login.name
        email = Nullable(login.email)
        let defaultID = login.defaultAccount?.id
        accounts = login.accounts.map { Account(id: $0.id, name: $0.name, isDefault: $0.id == defaultID) }
        server = sandbox ? "the built-in sandbox" : BasecampSession.origin(of: login.tokenEndpoint).absoluteString
        let expiry = credentials?.expiresAt
        expiresAt = Nullable(expiry.map { $0.formatted(.utcTimestamp) })
        expired = credentials == nil || expiry.map { $0 <= now } == true
        refreshable = credentials?.refreshToken != nil
        credentialsFile = files.credentialsLocation
        self.expiry = expiry
        relativeExpiry = expiry.map { Self.relative($0, now: now) }
    }

    /// "expires Mon 3 Jun 10:00 (in 14 days)", "expired … (2 hours ago)" or "no expiry given".
    func tokenSummary(_ context: CommandContext) -> String {
        guard let expiry, let relativeExpiry else { return "no expiry given" }
        return "\(expired ? "expired" : "expires") \(context.dates.dayAndTime(expiry)) (\(relativeExpiry))"
    }

    /// "in 14 days", "in 5 minutes", "2 hours ago": rounded to the nearest unit, as a person
    /// reads a time, so a two-week token seen a few seconds after sign-in is "in 14 days".
    static func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        // Each unit until its rounded count reaches the next unit's worth of two.
        let units: [(name: String, seconds: Double, limit: Int?)] = [
            ("second", 1, 120), ("minute", 60, 120), ("hour", 3600, 48), ("day", 86400, nil),
        ]
        for unit in units {
            let count = Int((magnitude / unit.seconds).rounded())
            guard let limit = unit.limit, count >= limit else {
                if count == 0 { return "now" }
                let text = "\(count) \(unit.name)\(count == 1 ? "" : "s")"
                return seconds >= 0 ? "in \(text)" : "\(text) ago"
            }
        }
        return "now"
    }

    /// Prints the status of `login` in `context`'s mode as text (or as `--format` asks).
    static func print(
        _ login: StoredLogin,
        _ credentials: TokenCredentials?,
        files: SignInFiles,
        in context: CommandContext
    )
        throws
    {
        try AuthStatus(
            login: login,
            credentials: credentials,
            files: files,
            sandbox: context.usesSandbox,
            now: context.now
        ).print(in: context)
    }

    /// Prints the status as text (or as the format `--format` asks for).
    func print(in context: CommandContext) throws {
        try context.printRecord(self) {
            context.print("Signed in to Basecamp as \(name)\(email.value.map { " <\($0)>" } ?? "").")
            if profile != SignInProfile.defaultName { context.print("Profile:  \(profile)") }
            context.print("Server:   \(server)")
            switch accounts.count {
            case 0:
                context.print("Accounts: none in Basecamp")
            case 1:
                context.print("Account:  \(accounts[0].id) \(accounts[0].name) (used when --account is not given)")
            default:
                context.print("Accounts: " + accounts.map { "\($0.id) \($0.name)" }.joined(separator: ", "))
                context.print("          (pass --account ID or set BASECAMP_ACCOUNT_ID to choose)")
            }
            let renewal = refreshable ? "; renewed automatically" : "; sign in again when it does"
            context.print("Token:    \(tokenSummary(context))\(renewal)")
            context.print("Saved in: \(credentialsFile)")
        }
    }
}

extension AuthStatus {
    /// Prints the sign-in of every profile kept in `files`' mode: a table, or with `--json` an
    /// array of what `auth status` prints for each. Never a token or a secret.
    ///
    /// - Throws: `auth_required` (exit 3) when no profile holds a sign-in.
    static func printAll(files: SignInFiles, in context: CommandContext) async throws {
        var statuses: [AuthStatus] = []
        for profile in files.profilesWithSignIn() {
            let profileFiles = files.forProfile(profile)
            guard let login = try profileFiles.loadLogin() else { continue }
            let credentials = await profileFiles.credentialStore(timeSource: context.environment.clock).load()
            statuses.append(
                AuthStatus(
                    login: login,
                    credentials: credentials,
                    files: profileFiles,
                    sandbox: context.usesSandbox,
                    now: context.now
                )
            )
        }
        guard !statuses.isEmpty else { throw BasecampSession.notSignedIn(context) }
        try context.printList(statuses) {
            var table = TextTable(columns: [
                .init("PROFILE"), .init("SIGNED IN AS"), .init("SERVER"), .init("ACCOUNTS"), .init("TOKEN"),
            ])
            table.rows = statuses.map { status in
                [
                    status.profile + (status.profile == files.profile.name ? " *" : ""),
                    status.name + (status.email.value.map { " <\($0)>" } ?? ""),
                    status.server,
                    status.accounts.map { String($0.id) }.joined(separator: ", "),
                    status.tokenSummary(context),
                ]
            }
            context.print(table)
            context.note("* the profile in use (--profile or BASECAMP_PROFILE).")
        }
    }
}
