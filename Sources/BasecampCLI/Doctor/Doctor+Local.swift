import CLISupport
import Foundation
import HTTPCore

/// The checks that read this machine: the files, the sign-in, the token and the `User-Agent`.
extension Doctor {
    func folderCheck() -> DoctorCheck {
        let id = "config_folder"
        guard let files else {
            return given != nil
                ? .skip(id, "No config folder (none needed: a token is given).")
                : .fail(id, "No config folder can be found.", fix: "Set BASECAMP_CONFIG_DIR (or HOME).")
        }
        let path = files.directory.path
        guard let mode = Self.mode(of: path) else {
            return .skip(id, "The sign-in folder \(path) does not exist yet ('basecamp auth login' makes it).")
        }
        guard mode & 0o077 == 0 else {
            return .fail(
                id,
                "The sign-in folder \(path) is open to others (\(Self.octal(mode))).",
                fix: "chmod 700 '\(path)'"
            )
        }
        return .pass(id, "The sign-in folder \(path) is private (\(Self.octal(mode))).")
    }

    func filesCheck() -> DoctorCheck {
        let id = "config_files"
        let present = [files?.loginURL, files?.credentialsURL].compactMap { $0?.path }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
        guard !present.isEmpty else { return .skip(id, "No sign-in files to check.") }
        let open = present.filter { (Self.mode(of: $0) ?? 0) & 0o077 != 0 }
        guard open.isEmpty else {
            let names = open.map { "'\($0)'" }.joined(separator: " ")
            return .fail(id, "The sign-in files \(names) are open to others.", fix: "chmod 600 \(names)")
        }
        let names = present.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " and ")
        return .pass(id, "The sign-in files (\(names)) are private (0600).")
    }

    func signInCheck() -> DoctorCheck {
        let id = "sign_in"
        if let given {
            return .pass(id, "Using the token from \(given.source), which wins over any stored sign-in.")
        }
        switch login {
        case .failure(let error):
            let message = (error as? APIError)?.message ?? "The sign-in file cannot be read."
            return .fail(id, message, fix: "Run '\(loginCommand)' again (or 'basecamp auth logout' to remove it).")
        case .success(let stored):
            guard let stored, credentials != nil else {
                let token = context.usesSandbox ? "" : " (or set BASECAMP_TOKEN)"
                return .fail(id, "Not signed in\(inProfile).", fix: "Run '\(loginCommand)'\(token).")
            }
            let email = stored.email.map { " <\($0)>" } ?? ""
            let named = profile.isDefault ? "" : " (profile \(profile.name))"
            return .pass(id, "Signed in as \(stored.name)\(email)\(named).")
        }
    }

    func expiryCheck() -> DoctorCheck {
        let id = "token_expiry"
        guard given == nil else { return .skip(id, "A given token's expiry is not known here.") }
        guard let credentials else { return .skip(id, "No stored token to check.") }
        guard let expiry = credentials.expiresAt else { return .pass(id, "The token gives no expiry.") }
        let when = "\(context.dates.dayAndTime(expiry)) (\(AuthStatus.relative(expiry, now: context.now)))"
        guard expiry <= context.now else { return .pass(id, "The token expires \(when).") }
        guard credentials.refreshToken != nil else {
            return .fail(id, "The token expired \(when) and cannot be renewed.", fix: "Run '\(loginCommand)'.")
        }
        return .pass(id, "The token expired \(when); the next command renews it.")
    }

    /// Renews the stored token once, as a command would near expiry, and saves the new one.
    func refreshCheck(agent: String?) async -> (check: DoctorCheck, renewed: TokenCredentials?) {
        let id = "token_refresh"
        guard given == nil, let files, let login = storedLogin, let current = credentials else {
            return (.skip(id, "No stored sign-in to renew."), nil)
        }
        guard current.refreshToken != nil else {
            return (.skip(id, "The sign-in has no refresh token: sign in again when the token expires."), nil)
        }
        let oauth = login.oauthClient(
            network: BasecampSession.network(
                connection: connection,
                userAgent: agent ?? connection.configuration.userAgent ?? "basecamp"
            ),
            origin: context.usesSandbox ? BasecampSession.origin(of: connection.configuration.baseURL) : nil
        )
        let store = SignInCredentialStore(
            files: files,
            base: files.credentialStore(timeSource: context.environment.clock)
        )
        do {
            // Under the lock, from what is stored then: another process may have renewed it meanwhile.
            let renewed = try await store.withRefreshLock {
                let renewed = try await oauth.refresh(await store.load() ?? current)
                try await store.save(renewed)
                return renewed
            }
            for secret in [renewed.accessToken, renewed.refreshToken].compactMap({ $0 }) {
                context.registerSecret(secret)
            }
            return (.pass(id, "A test refresh renewed the token; the new one is saved."), renewed)
        } catch {
            let failure = error as? APIError
            let fix = failure?.code == .authRequired ? "Run '\(loginCommand)' to sign in again." : failure?.hint
            return (
                .fail(
                    id,
                    "A test refresh failed: \(failure?.message ?? "\(error)")",
                    fix: fix ?? "Check the connection and run 'basecamp doctor' again."
                ),
                nil
            )
        }
    }

    /// The `User-Agent` check, and the header's value when it can be sent.
    func agentCheck() -> (check: DoctorCheck, value: String?) {
        let id = "user_agent"
        do {
            let agent = try BasecampSession.agent(context: context, connection: connection, email: storedLogin?.email)
            return (.pass(id, "Requests name a contact: User-Agent \(agent.value)"), agent.value)
        } catch {
            let failure = error as? APIError
            return (
                .fail(
                    id,
                    failure?.message ?? "No User-Agent can be made.",
                    fix: failure?.hint ?? "Set BASECAMP_USER_AGENT, e.g. \"my-scripts (you@example.com)\"."
                ),
                nil
            )
        }
    }

    /// The permission bits of `path`, or `nil` when nothing is there.
    static func mode(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    /// `0700`.
    static func octal(_ mode: Int) -> String {
        let digits = String(mode & 0o777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
