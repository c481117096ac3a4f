public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Credentials in a JSON file readable only by its owner.
///
/// Writes are atomic: the new content goes to a temporary file created with permissions 0600
/// in the same directory, is flushed to disk, and is renamed over the old file, so a crash
/// leaves either the old or the new credentials and never a half-written file, and the file
/// is never readable by others, not even for a moment. A missing directory is created with
/// permissions 0700.
///
/// Processes that share the file take turns to refresh: ``withRefreshLock(_:)`` holds an
/// exclusive `flock` on ``lockURL`` (the file's name plus `.lock`, beside it), so when two
/// runs of a command find the same expired token, one refreshes and saves, and the other
/// waits, reads the file again and uses the fresh token instead of spending the refresh token
/// a second time. The lock is released when the refresh ends, and by the system if the process
/// dies. Where the lock file cannot be created (a read-only directory, a file system without
/// locks) the refresh runs without it.
///
/// ```swift
/// let store = FileCredentialStore(url: FileManager.default.homeDirectoryForCurrentUser
///     .appending(path: ".config/myapp/credentials.json"))
/// ```
public struct FileCredentialStore: CredentialStore {
    /// The file.
    public let url: URL
    /// How long a refresh waits for another process's refresh before it gives up with a
    /// `network` error (the credentials are kept).
    public var lockTimeout: Duration
    /// The clock the wait for the lock is measured and paced on.
    public var timeSource: any TimeSource

    /// Creates a store at `url`; nothing is touched until the first save or refresh.
    ///
    /// - Parameters:
    ///   - url: The credentials file.
    ///   - lockTimeout: The longest a refresh waits for another process's refresh (60 s).
    ///   - timeSource: The clock for that wait; tests pass a test clock.
    public init(url: URL, lockTimeout: Duration = .seconds(60), timeSource: any TimeSource = SystemTimeSource()) {
        self.url = url
        self.lockTimeout = lockTimeout
        self.timeSource = timeSource
    }

    /// The lock file refreshes take turns on: the credentials file's path plus `.lock`.
    public var lockURL: URL {
        FileLock(beside: url).url
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

    /// Creates the file's directory (0700) when it is missing.
    func createDirectory() throws {
        do {
            try PrivateFile.createFolder(url.deletingLastPathComponent())
        } catch {
            throw failure("could not be created (its directory is not writable)")
        }
    }

    /// Writes `data` to the file atomically with permissions 0600 (for tools that keep other
    /// private files beside the credentials).
    package func writeAtomically(_ data: Data) throws {
        try createDirectory()
        do {
            try PrivateFile.save(data, to: url)
        } catch {
            throw failure("could not be written (\(error.explanation))")
        }
    }

    func failure(_ what: String) -> APIError {
        APIError.usage(
            "The credential file \(url.path) \(what).",
            hint: "Check that the directory exists and is writable by this user."
        )
    }
}
