import CLISupport
import Foundation
import HTTPCore

/// Where `basecamp` keeps a sign-in: the tokens (`credentials.json`, refreshed in place under
/// a file lock) and what the sign-in learned (`login.json`: client, server, identity,
/// accounts), both readable by the user only.
///
/// The config folder is `BASECAMP_CONFIG_DIR` when set, else `$XDG_CONFIG_HOME/basecamp`, else
/// `~/.config/basecamp`. The default profile's sign-in is kept in it, as it always was; a named
/// profile's in `profiles/NAME`. Sign-ins to the sandbox live under its `sandbox` folder, laid
/// out the same way, so trying the sandbox never touches a real sign-in.
struct SignInFiles {
    /// The folder every profile of this mode (sandbox or not) is kept under.
    let modeDirectory: URL
    /// The profile the files belong to.
    let profile: SignInProfile
    /// The folder holding both files.
    let directory: URL
    /// Where the tokens are kept instead of `credentials.json`, when `BASECAMP_CREDENTIALS_URL` is set.
    var sharedCredentials: SharedCredentials?

    /// The token file, managed by `FileCredentialStore`.
    var credentialsURL: URL { directory.appending(path: "credentials.json") }
    /// The sign-in's description.
    var loginURL: URL { directory.appending(path: "login.json") }
    /// Where the sandbox's authorization server keeps the codes and tokens it issued, so
    /// separate runs of `basecamp --sandbox` accept each other's tokens; one for every profile,
    /// as one server issued them.
    var sandboxAuthorizationStateURL: URL { modeDirectory.appending(path: "authorization-state.json") }
    /// The folder named profiles are kept in.
    var profilesDirectory: URL { modeDirectory.appending(path: "profiles") }

    /// The files of `profile` for the context's mode (sandbox or not); `nil` when no folder can
    /// be found (no `BASECAMP_CONFIG_DIR`, `XDG_CONFIG_HOME` or `HOME`).
    init?(variables: [String: String], sandbox: Bool, profile: SignInProfile = .default) {
        func value(_ name: String) -> String? {
            guard let value = variables[name], !value.isEmpty else { return nil }
            return value
        }
        let base: URL
        if let path = value("BASECAMP_CONFIG_DIR") {
            base = URL(fileURLWithPath: path, isDirectory: true)
        } else if let path = value("XDG_CONFIG_HOME") {
            base = URL(fileURLWithPath: path, isDirectory: true).appending(path: "basecamp")
        } else if let path = value("HOME") {
            base = URL(fileURLWithPath: path, isDirectory: true).appending(path: ".config/basecamp")
        } else {
            return nil
        }
        self.init(modeDirectory: sandbox ? base.appending(path: "sandbox") : base, profile: profile)
        sharedCredentials = SharedCredentials(variables: variables, sandbox: sandbox, profile: profile.name)
    }

    private init(modeDirectory: URL, profile: SignInProfile) {
        self.modeDirectory = modeDirectory
        self.profile = profile
        directory =
            profile.isDefault ? modeDirectory : modeDirectory.appending(path: "profiles").appending(path: profile.name)
    }

    /// The files of `profile` for `context`, or a configuration error saying how to name a folder.
    init(context: CommandContext, profile: SignInProfile) throws {
        guard
            let files = SignInFiles(
                variables: context.environment.variables,
                sandbox: context.usesSandbox,
                profile: profile
            )
        else {
            throw APIError.usage(
                "There is no folder to keep the sign-in in.",
                hint: "Set BASECAMP_CONFIG_DIR (or HOME, or XDG_CONFIG_HOME)."
            )
        }
        self = files
    }

    /// The same mode's files for another profile, its tokens kept where this one's are.
    func forProfile(_ other: SignInProfile) -> SignInFiles {
        var files = SignInFiles(modeDirectory: modeDirectory, profile: other)
        files.sharedCredentials = sharedCredentials.map { shared in
            var shared = shared
            shared.identity = other.name
            return shared
        }
        return files
    }

    /// Every profile with a sign-in kept in this mode, the default one first, then by name.
    func profilesWithSignIn() -> [SignInProfile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: profilesDirectory.path)) ?? []
        let named = names.sorted().compactMap { try? SignInProfile($0) }.filter { !$0.isDefault }
        return ([SignInProfile.default] + named).filter {
            FileManager.default.fileExists(atPath: forProfile($0).loginURL.path)
        }
    }

    /// Creates the folder, readable by the user only, when it is missing.
    func createDirectory() throws {
        do {
            try PrivateFile.createFolder(directory)
        } catch {
            throw ConfigurationError(
                "The folder \(directory.path) cannot be created.",
                hint: "Set BASECAMP_CONFIG_DIR to a folder you can write to."
            )
        }
    }

    /// Runs `body`, which writes the sign-in's files: a file it cannot write is a setting the
    /// tool cannot use (`configuration`, exit 1), not a bad command line, which HTTPCore's
    /// file store calls it.
    static func writing<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as APIError where error.code == .usage {
            throw ConfigurationError(error.message, hint: error.hint)
        }
    }

    /// The token store, with its lock for refreshes shared between processes: PostgreSQL when
    /// `BASECAMP_CREDENTIALS_URL` is set, else `credentials.json`.
    func credentialStore(timeSource: any TimeSource) -> any CredentialStore {
        sharedCredentials?.store() ?? FileCredentialStore(url: credentialsURL, timeSource: timeSource)
    }

    /// Where the tokens are, for `auth status`: the file, or the variable naming the database
    /// (never the connection string, which may hold a password).
    var credentialsLocation: String {
        sharedCredentials == nil ? credentialsURL.path : "PostgreSQL (\(SharedCredentials.variable))"
    }

    /// The stored sign-in, or `nil` when there is none.
    ///
    /// - Throws: A configuration error when the file exists but cannot be read.
    func loadLogin() throws -> StoredLogin? {
        guard let data = FileManager.default.contents(atPath: loginURL.path) else { return nil }
        do {
            return try JSONDecoder().decode(StoredLogin.self, from: data)
        } catch {
            throw ConfigurationError(
                "The sign-in file \(loginURL.path) cannot be read.",
                hint: "Run 'basecamp auth login' again (or 'basecamp auth logout' to remove it)."
            )
        }
    }

    /// Writes the sign-in's description atomically, readable by the user only.
    func saveLogin(_ login: StoredLogin) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(login)
        do {
            try FileCredentialStore(url: loginURL).writeAtomically(data)
        } catch let error as APIError where error.code == .usage {
            throw ConfigurationError(error.message, hint: error.hint)
        }
    }

    /// Stores a new sign-in whole, tokens in `store` and then its description, under the
    /// store's refresh lock as logout removes one: a refresh of the old sign-in that another
    /// process is making writes first, and this sign-in then replaces it, rather than the
    /// renewed old tokens landing on top of the new description. On failure nothing is left.
    func save(_ credentials: TokenCredentials, _ login: StoredLogin, in store: any CredentialStore) async throws {
        try await Self.writing { try await saveWhole(credentials, login, in: store) }
    }

    private func saveWhole(
        _ credentials: TokenCredentials,
        _ login: StoredLogin,
        in store: any CredentialStore
    ) async throws {
        try await store.withRefreshLock {
            try await store.save(credentials)
            do {
                try saveLogin(login)
            } catch {
                // Tokens without their login would be a sign-in no command uses.
                _ = try? await remove()
                throw error
            }
        }
    }

    /// Removes both files, so no half of a sign-in is left, and a named profile's folder once
    /// it is empty; returns whether anything was there.
    func remove() async throws -> Bool {
        let existed = [credentialsURL, loginURL].contains { FileManager.default.fileExists(atPath: $0.path) }
        try await Self.writing {
            try await FileCredentialStore(url: loginURL).remove()
            try await credentialStore(timeSource: SystemTimeSource()).remove()
        }
        // A named profile's folder goes too once only refresh-lock files are left in it.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        if !profile.isDefault, left.allSatisfy({ $0.hasSuffix(".lock") }) {
            try? FileManager.default.removeItem(at: directory)
        }
        return existed
    }
}
