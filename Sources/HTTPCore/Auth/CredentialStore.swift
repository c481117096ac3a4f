public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where ``RefreshingTokenAuth`` keeps credentials between launches.
///
/// Loading never fails: a missing, unreadable or corrupt store means "no credentials", and the
/// user signs in again. Saving may throw; the strategy then keeps the credentials in memory and
/// reports ``AuthEvent/Kind/storeFailed``.
public protocol CredentialStore: Sendable {
    /// The stored credentials, or `nil` when there are none or they cannot be read.
    func load() async -> TokenCredentials?
    /// Replaces the stored credentials.
    func save(_ credentials: TokenCredentials) async throws
    /// Forgets the stored credentials.
    func remove() async throws
}

/// Credentials kept in memory only: for tests and for apps that persist elsewhere.
public actor InMemoryCredentialStore: CredentialStore {
    private var credentials: TokenCredentials?

    /// Creates a store holding `credentials`.
    public init(_ credentials: TokenCredentials? = nil) {
        self.credentials = credentials
    }

    /// The credentials held.
    public func load() -> TokenCredentials? { credentials }

    /// Replaces the credentials held.
    public func save(_ credentials: TokenCredentials) { self.credentials = credentials }

    /// Forgets the credentials.
    public func remove() { credentials = nil }
}

/// Credentials in a JSON file readable only by its owner.
///
/// Writes are atomic: the new content goes to a temporary file created with permissions 0600
/// in the same directory, is flushed to disk, and is renamed over the old file, so a crash
/// leaves either the old or the new credentials and never a half-written file, and the file
/// is never readable by others, not even for a moment. A missing directory is created with
/// permissions 0700.
///
/// ```swift
/// let store = FileCredentialStore(url: FileManager.default.homeDirectoryForCurrentUser
///     .appending(path: ".config/myapp/credentials.json"))
/// ```
public struct FileCredentialStore: CredentialStore {
    /// The file.
    public let url: URL

    /// Creates a store at `url`; nothing is touched until the first save.
    public init(url: URL) {
        self.url = url
    }

    /// The credentials in the file; `nil` when it is missing, unreadable or not valid JSON of
    /// the credential shape.
    public func load() async -> TokenCredentials? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(TokenCredentials.self, from: data)
    }

    /// Writes the credentials atomically with permissions 0600.
    ///
    /// - Throws: ``APIError/usage(_:)`` naming the file (never its content) when it cannot be
    ///   written.
    public func save(_ credentials: TokenCredentials) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(credentials)
        } catch {
            throw APIError.usage("The credentials could not be encoded for \(url.path).")
        }
        try writeAtomically(data)
    }

    /// Deletes the file; a missing file is not an error.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the file exists but cannot be deleted.
    public func remove() async throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw failure("could not be deleted")
        }
    }

    private func writeAtomically(_ data: Data) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw failure("could not be created (its directory is not writable)")
        }
        let temporary = directory.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        // O_EXCL with mode 0600: the file holds secrets from its first byte, so it must never
        // exist with the umask's looser permissions.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("could not be written") }
        var written = 0
        let ok = data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while written < buffer.count {
                let count = write(descriptor, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
        let synced = ok && fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw failure("could not be written")
        }
    }

    private func failure(_ what: String) -> APIError {
        APIError.usage(
            "The credential file \(url.path) \(what).",
            hint: "Check that the directory exists and is writable by this user."
        )
    }
}
