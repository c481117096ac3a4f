import CLISupport
import Foundation
import HTTPCore

/// Where `basecamp` keeps a sign-in: the tokens (`credentials.json`, refreshed in place under
/// a file lock) and what the sign-in learned (`login.json`: client, server, identity,
/// accounts), both readable by the user only.
///
/// The directory is `BASECAMP_CONFIG_DIR` when set, else `$XDG_CONFIG_HOME/basecamp`, else
/// `~/.config/basecamp`; sign-ins to the sandbox live in its `sandbox` folder, so trying the
/// sandbox never touches a real sign-in.
struct SignInFiles {
    /// The folder holding both files.
    let directory: URL
    /// Where the tokens are kept instead of `credentials.json`, when `BASECAMP_CREDENTIALS_URL` is set.
    var sharedCredentials: SharedCredentials?

    /// The token file, managed by `FileCredentialStore`.
    var credentialsURL: URL { directory.appending(path: "credentials.json") }
    /// The sign-in's description.
    var loginURL: URL { directory.appending(path: "login.json") }
    /// Where the sandbox's authorization server keeps the codes and tokens it issued, so
    /// separate runs of `basecamp --sandbox` accept each other's tokens.
    var sandboxAuthorizationStateURL: URL { directory.appending(path: "authorization-state.json") }

    /// The files for the context's mode (sandbox or not); `nil` when no folder can be found
    /// (no `BASECAMP_CONFIG_DIR`, `XDG_CONFIG_HOME` or `HOME`).
    init?(variables: [String: String], sandbox: Bool) {
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
        directory = sandbox ? base.appending(path: "sandbox") : base
        sharedCredentials = SharedCredentials(variables: variables, sandbox: sandbox)
    }

    /// The files for `context`, or a configuration error saying how to name a folder.
    init(context: CommandContext) throws {
        guard let files = SignInFiles(variables: context.environment.variables, sandbox: context.usesSandbox) else {
            throw APIError.usage(
                "There is no folder to keep the sign-in in.",
                hint: "Set BASECAMP_CONFIG_DIR (or HOME, or XDG_CONFIG_HOME)."
            )
        }
        self = files
    }

    /// Creates the folder, readable by the user only, when it is missing.
    func createDirectory() throws {
        do {
            try PrivateFile.createFolder(directory)
        } catch {
            throw APIError.usage(
                "The folder \(directory.path) cannot be created.",
                hint: "Set BASECAMP_CONFIG_DIR to a folder you can write to."
            )
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
            throw APIError.usage(
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
        try FileCredentialStore(url: loginURL).writeAtomically(data)
    }

    /// Removes both files, so no half of a sign-in is left; returns whether anything was there.
    func remove() async throws -> Bool {
        let existed = [credentialsURL, loginURL].contains { FileManager.default.fileExists(atPath: $0.path) }
        try await FileCredentialStore(url: loginURL).remove()
        try await credentialStore(timeSource: SystemTimeSource()).remove()
        return existed
    }
}
