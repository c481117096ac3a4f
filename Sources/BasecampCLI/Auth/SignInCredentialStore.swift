import Foundation
import HTTPCore

/// The stored sign-in's token file, which a refresh may write only while the sign-in exists:
/// after `basecamp auth logout` in another terminal, a command that was already running keeps
/// its renewed token in memory instead of writing it back to disk.
///
/// Removing the tokens (what a refresh the server refused does) removes the whole sign-in, so
/// no login is left behind without tokens: the next command is simply not signed in, and
/// `--sandbox` falls back to its stand-in.
struct SignInCredentialStore: CredentialStore {
    let files: SignInFiles
    let base: any CredentialStore

    func load() async -> TokenCredentials? {
        await base.load()
    }

    func save(_ credentials: TokenCredentials) async throws {
        guard FileManager.default.fileExists(atPath: files.loginURL.path) else {
            throw APIError.usage("Signed out meanwhile: the renewed token is not saved.")
        }
        try await base.save(credentials)
    }

    func remove() async throws {
        _ = try await files.remove()
    }

    func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try await base.withRefreshLock(body)
    }
}
